// Reassemble Letta streams into complete messages, accounting for every frame: the same rules as
// Python's chatschema.letta.stream (and chatschema.letta.sse), checked against the same vectors
// (schemas/letta/examples/streams/). An ES module (stream.js at the package root is its CommonJS
// build); types in stream.d.ts.
//
//   import { reassembleSse, reassembleSseStream } from "chatschema/stream";
//   const result = reassembleSse(bodyText);   // or an array / iterable of string or Uint8Array chunks
//   result.messages; result.frames; result.dropped; result.errors; result.cancelled
//   for await (const event of reassembleSseStream(response.body, { signal })) ...   // as it arrives
// the three frame validators only, not the family's (a bundle of the readers takes these alone)
import { LettaSseCancelled, LettaSseError, LettaStreamingResponse } from "./validators/letta.js";
import { grammars, unions } from "./validators/letta.meta.js";
import { isUnknownVariant, keepsUnknown } from "./core.js";

const MAX_DEPTH = 1024; // chatschema.jsontext's limit (the deepest orjson reads)
const CALLS = new Set(["tool_call_message", "approval_request_message"]);
const DELTA_KEYS = new Set(["name", "arguments", "tool_call_id"]);
const TEXT = { assistant_message: "content", reasoning_message: "reasoning", hidden_reasoning_message: "hidden_reasoning" };
// The order of the frames (schemas/letta/grammars/LettaStreamingResponse.json): each frame type's
// role, and a state machine over the roles; as in Python's chatschema.letta.grammar.
const GRAMMAR = grammars.LettaStreamingResponse;
const FRAME_TYPES = unions.LettaStreamingResponse.known; // what `unknown: "keep"` tells a later frame type by
const ROLE = new Map(Object.entries(GRAMMAR.roles).flatMap(([role, spec]) => spec.tags.map((tag) => [tag, role])));

function droppedAs(role) {
  const spec = GRAMMAR.roles[role];
  return spec && spec.dropped_as !== undefined ? spec.dropped_as : "out_of_order";
}

/** The stream cannot be reassembled faithfully; the one-line message says where and why. */
class StreamError extends Error {
  constructor(message) {
    super(message);
    this.name = "StreamError";
  }
}

class Incomplete extends Error {}

// ---- the WHATWG EventSource parser --------------------------------------------------------------

/** An incremental SSE parser: `feed` strings or UTF-8 bytes in chunks of any size, then `close`. */
class SseParser {
  constructor() {
    this.decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    this.bytes = false; // the last chunk was bytes (the decoder may hold the start of a character)
    this.pending = [];
    this.cr = false;
    this.started = false;
    this.line = 0;
    this.data = [];
    this.hasData = false;
    this.type = "";
    this.id = "";
    this.idBuffer = "";
    this.retry = null;
  }

  feed(chunk) {
    let text;
    if (typeof chunk === "string") {
      // bytes that ended inside a character are not UTF-8: the decoder, fatal, throws on them here,
      // where it would otherwise hold them and let this text go first (an empty text changes nothing)
      if (chunk !== "") {
        if (this.bytes) this.decoder.decode();
        this.bytes = false;
      }
      text = chunk;
    } else {
      this.bytes = true;
      text = this.decoder.decode(chunk, { stream: true });
    }
    if (!text) return []; // an empty chunk (or the start of a UTF-8 character): a CR before it still pairs with an LF after
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.cr && text.startsWith("\n")) text = text.slice(1);
    this.cr = false;
    const events = [];
    const size = text.length;
    let start = 0;
    let cr = -1;
    let lf = -1;
    while (start < size) {
      if (cr < start) {
        cr = text.indexOf("\r", start);
        if (cr < 0) cr = size;
      }
      if (lf < start) {
        lf = text.indexOf("\n", start);
        if (lf < 0) lf = size;
      }
      if (cr === size && lf === size) break;
      const end = Math.min(cr, lf);
      let line = text.slice(start, end);
      if (this.pending.length) {
        line = this.pending.join("") + line;
        this.pending = [];
      }
      if (text[end] === "\r") {
        if (end + 1 < size) start = text[end + 1] === "\n" ? end + 2 : end + 1;
        else {
          this.cr = true; // the LF of a CRLF may come in the next chunk
          start = end + 1;
        }
      } else start = end + 1;
      const event = this.process(line);
      if (event !== null) events.push(event);
    }
    if (start < size) this.pending.push(text.slice(start));
    return events;
  }

  close() {
    const rest = this.decoder.decode();
    if (rest) this.pending.push(rest);
    if (this.pending.length) {
      const line = this.pending.join("");
      this.pending = [];
      this.process(line); // a last line without a line ending: a field line, never a dispatch
    }
    if (!this.hasData) return null;
    return { type: this.type || "message", data: this.data.join("\n"), lastEventId: this.idBuffer, retry: this.retry, line: this.line, terminated: false };
  }

  process(line) {
    this.line += 1;
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") {
      this.data.push(value);
      this.hasData = true;
    } else if (name === "event") this.type = value;
    else if (name === "id") {
      if (!value.includes("\0")) this.idBuffer = value;
    } else if (name === "retry") {
      if (/^[0-9]+$/.test(value)) this.retry = Number(value);
    }
    return null;
  }

  dispatch() {
    this.id = this.idBuffer;
    if (!this.hasData) {
      this.type = "";
      return null;
    }
    const event = { type: this.type || "message", data: this.data.join("\n"), lastEventId: this.id, retry: this.retry, line: this.line, terminated: true };
    this.data = [];
    this.hasData = false;
    this.type = "";
    return event;
  }
}

/** A chunk that is neither a string nor a Uint8Array: a TypeError that says so, not "not UTF-8". */
class WrongChunk extends TypeError {}

/** The events of an SSE body (a string, bytes, or an iterable of chunks); an unfinished last event comes last. */
function* iterSseEvents(body) {
  const parser = new SseParser();
  const chunks = typeof body === "string" || isBytes(body) ? [body] : body;
  for (const chunk of chunks) {
    if (typeof chunk !== "string" && !isBytes(chunk)) throw new WrongChunk(`an SSE body's chunks are strings or Uint8Arrays; got ${kindOf(chunk)}`);
    yield* parser.feed(chunk);
  }
  const last = parser.close();
  if (last !== null) yield last;
}

// ---- JSON under chatschema.jsontext's rules ----------------------------------------------------

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** JSON.parse, plus chatschema.jsontext's rules: no 1e400 (Infinity), no lone surrogates, depth <= 1024. */
function parseJsonText(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Incomplete(err.message);
  }
  const stack = [[value, 0]];
  while (stack.length) {
    const [node, level] = stack.pop();
    if (typeof node === "number") {
      if (!Number.isFinite(node)) throw new Incomplete("a number too large for a double");
    } else if (typeof node === "string") {
      if (LONE_SURROGATE.test(node)) throw new Incomplete("lone surrogate escape in a string (not UTF-8 text)");
    } else if (node !== null && typeof node === "object") {
      if (level + 1 > MAX_DEPTH) throw new Incomplete(`nesting too deep: more than ${MAX_DEPTH} levels`);
      if (Array.isArray(node)) for (const item of node) stack.push([item, level + 1]);
      else
        for (const [key, item] of Object.entries(node)) {
          if (LONE_SURROGATE.test(key)) throw new Incomplete("lone surrogate escape in a key (not UTF-8 text)");
          stack.push([item, level + 1]);
        }
    }
  }
  return value;
}

function jsonObject(text, where) {
  let value;
  try {
    value = parseJsonText(text);
  } catch (err) {
    throw new StreamError(`${where}: event data is not JSON: ${err.message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new StreamError(`${where}: event data is JSON but not an object`);
  exactSeqs(value, text);
  return value;
}

// read when called: a bundle may order this module before the validators' bindings are set
function frameValidator(name) {
  if (name === "letta/LettaSseError") return LettaSseError;
  if (name === "letta/LettaSseCancelled") return LettaSseCancelled;
  return LettaStreamingResponse;
}

function firstViolation(name, payload) {
  const fn = frameValidator(name);
  if (fn(payload)) return null;
  const error = (fn.errors || [])[0] || {};
  const path = "$" + (error.instancePath || "").split("/").slice(1).map((k) => (/^[0-9]+$/.test(k) ? `[${k}]` : `.${k.replace(/~1/g, "/").replace(/~0/g, "~")}`)).join("");
  return `${path}: ${error.message || error.keyword}`;
}

function validateAs(name, data, where) {
  const problem = firstViolation(name, data);
  if (problem !== null) throw new StreamError(`${where}: not a valid ${name} at ${problem}`);
  return data;
}

// ---- reassembly --------------------------------------------------------------------------------

function frameKey(data) {
  return data.otid !== undefined && data.otid !== null ? `otid ${data.otid}` : `id ${data.id} (${data.message_type})`;
}

// seq_ids are kept as BigInts, exact as Python's ints: past 2**53 a Number would merge neighbours
// (a false gap, or two fragments taken for one replayed). JSON.parse rounds such a number, so for a
// frame read from text its exact digits are taken from the text (`EXACT_SEQ`).
const EXACT_SEQ = new WeakMap();

function seqOf(data) {
  const exact = EXACT_SEQ.get(data);
  if (exact !== undefined) return exact;
  const seq = data.seq_id;
  return typeof seq === "number" && Number.isInteger(seq) ? BigInt(seq) : null;
}

const JSON_SPACE = " \t\n\r";
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

function skipSpace(text, at) {
  while (at < text.length && JSON_SPACE.includes(text[at])) at++;
  return at;
}

/** The digits of the top-level `seq_id` of a JSON object's text (of the last one, which JSON.parse
 * keeps), or null if it is not written as an integer. */
function seqDigits(text) {
  let depth = 0;
  let found = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if (c === '"') {
      const start = i;
      for (i++; text[i] !== '"'; i++) if (text[i] === "\\") i++;
      if (depth !== 1) continue;
      const colon = skipSpace(text, i + 1);
      if (text[colon] !== ":" || JSON.parse(text.slice(start, i + 1)) !== "seq_id") continue; // a value, or another key
      NUMBER.lastIndex = skipSpace(text, colon + 1);
      const number = NUMBER.exec(text);
      found = number !== null && number[1] === undefined && number[2] === undefined ? number[0] : null;
    }
  }
  return found;
}

function exactSeqs(data, text) {
  const seq = data.seq_id;
  if (typeof seq !== "number" || !Number.isInteger(seq) || Number.isSafeInteger(seq)) return;
  const digits = seqDigits(text);
  if (digits === null || Number(digits) !== seq) return;
  const exact = BigInt(digits);
  if (exact >= -(2n ** 63n) && exact < 2n ** 64n) EXACT_SEQ.set(data, exact); // what Python reads exactly too
}

/** A BigInt seq_id as the API gives it: a Number while that is exact, else the BigInt. */
function seqOut(seq) {
  return seq >= BigInt(Number.MIN_SAFE_INTEGER) && seq <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(seq) : seq;
}

function bySize(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

class State {
  constructor() {
    this.result = { messages: [], stopReason: null, usage: null, errors: [], cancelled: null, done: false, lastSeqId: null, frames: [], gaps: [], unknown: [] };
    this.accounts = new Map();
    this.candidates = [];
    this.seqs = [];
    this.hidden = 0;
    this.order = GRAMMAR.start; // the grammar's state: where the frames so far have brought the stream
    this.closing = null; // the frame after which the grammar allows no message (the stop reason)
    this.skeleton = null; // of the last fragment frame validated in full
    this.repeats = [];
    this.ended = false;
    this.truncated = false;
    this.reportGaps = false; // gaps: "report": a seq_id gap is listed in the result, not thrown
    this.keepUnknown = false; // unknown: "keep": a frame of an unknown type is kept and accounted, not an error
    this.runId = null; // with oneRun: the run the frames so far belong to
    this.oneRun = false; // reassembleResumed: a frame of another run is an error
  }

  account(index, outcome, reason, detail) {
    const a = { index, outcome };
    if (reason !== undefined) {
      a.reason = reason;
      a.detail = detail;
    }
    this.accounts.set(index, a);
  }

  recordSeq(data) {
    const seq = seqOf(data);
    if (seq !== null) this.seqs.push(seq);
    return seq;
  }
}

function plainDelta(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (!keys.length) return false;
  for (const k of keys) if (!DELTA_KEYS.has(k) || typeof value[k] !== "string") return false;
  return true;
}

/** A fragment frame without the keys that change from one fragment to the next, if those are plain strings. */
function skeletonOf(data) {
  const kind = data.message_type;
  const seq = data.seq_id;
  if (seq !== undefined && seq !== null && !(typeof seq === "number" && Number.isInteger(seq))) return null;
  let varying;
  if (CALLS.has(kind)) {
    const calls = data.tool_calls;
    if (!plainDelta(data.tool_call) || !(calls === undefined || calls === null || plainDelta(calls))) return null;
    varying = ["tool_call", "tool_calls", "seq_id"];
  } else if (Object.prototype.hasOwnProperty.call(TEXT, kind)) {
    if (typeof data[TEXT[kind]] !== "string") return null;
    varying = [TEXT[kind], "seq_id"];
  } else return null;
  const out = {};
  for (const k of Object.keys(data)) if (!varying.includes(k)) out[k] = data[k];
  return out;
}

function take(state, index, where, data) {
  // Fragments of one message repeat every other key: once a frame with the same skeleton was valid,
  // a fragment whose changing keys are plain strings is valid too (the same shortcut as in Python).
  const skeleton = skeletonOf(data);
  if (skeleton !== null && state.skeleton !== null && same(skeleton, state.skeleton)) {
    state.candidates.push({ index, where, data, seq: state.recordSeq(data) });
    return;
  }
  if (state.keepUnknown && isUnknownVariant(data, "message_type", FRAME_TYPES)) {
    state.recordSeq(data); // numbered like any frame: its seq_id is no gap
    state.result.unknown.push(data);
    state.account(index, "unknown");
    return;
  }
  validateAs("letta/LettaStreamingResponse", data, where);
  if (state.oneRun) checkRun(state, data, where);
  state.skeleton = skeleton;
  const kind = data.message_type;
  const seq = state.recordSeq(data);
  const role = ROLE.get(kind);
  if (role === undefined) throw new StreamError(`${where}: a ${kind} frame has no role in the stream's grammar`);
  if (role === "message") {
    state.candidates.push({ index, where, data, seq });
    return;
  }
  const after = GRAMMAR.next[state.order][role];
  if (after === undefined) {
    state.account(index, "dropped", droppedAs(role), outOfOrder(state, where, kind, role));
    return;
  }
  state.order = after;
  if (state.closing === null && GRAMMAR.next[after].message === undefined) state.closing = { index, where, data, seq };
  play(state, index, role, data, seq);
}

/** Frames of one run only (fragments after a validated frame repeat its run_id). */
function checkRun(state, data, where) {
  const runId = data.run_id;
  if (runId === undefined || runId === null) return;
  if (state.runId === null) state.runId = runId;
  else if (runId !== state.runId) {
    throw new StreamError(`${where}: a frame of run ${JSON.stringify(runId)} among frames of run ${JSON.stringify(state.runId)} (reassemble each run apart)`);
  }
}

/** One line on a frame whose role may not come where it came. */
function outOfOrder(state, where, kind, role) {
  if (role === "stop" && state.result.stopReason !== null) return `${where}: a second stop_reason (${JSON.stringify(state.result.stopReason.stop_reason)} kept)`;
  if (role === "usage" && state.result.usage !== null) return `${where}: a second usage_statistics (the first kept)`;
  return `${where}: a ${kind} where the stream's grammar allows no ${role} frame (state '${state.order}')`;
}

/** What a frame that is not a message does to the stream, by its role. */
const PLAYS = { stop: "stop_reason", usage: "usage_statistics", error: "error_message", ping: null };

function play(state, index, role, data, seq) {
  const plays = PLAYS[role];
  if (plays === undefined || (plays !== null && data.message_type !== plays)) {
    // the generator refuses such a grammar; a grammar edited by hand can still say it
    throw new StreamError(`frame ${index}: a ${data.message_type} frame cannot play the role '${role}'`);
  }
  if (role === "stop") {
    if (state.result.stopReason === null) state.result.stopReason = data;
    if (seq === null) state.hidden += 1;
    state.account(index, "stop_reason");
  } else if (role === "usage") {
    if (state.result.usage === null) state.result.usage = data;
    if (seq === null) state.hidden += 1;
    state.account(index, "usage");
  } else if (role === "error") {
    state.result.errors.push(data);
    state.ended = true;
    state.account(index, "error");
  } else state.account(index, "ping");
}

function takeEvent(state, index, event) {
  const where = `event ${index} (line ${event.line})`;
  if (state.result.done) {
    state.account(index, "dropped", "after_done", `${where}: an ${JSON.stringify(event.type)} event after data: [DONE]`);
    return;
  }
  if (!event.terminated) {
    state.truncated = true;
    state.account(index, "dropped", "unterminated_event", `${where}: the body ends inside this event`);
    return;
  }
  if (event.type === "message") {
    if (event.data === "[DONE]") {
      state.result.done = true;
      state.account(index, "done");
      return;
    }
    take(state, index, where, jsonObject(event.data, where));
  } else if (event.type === "error") {
    const data = jsonObject(event.data, where);
    if (Object.prototype.hasOwnProperty.call(data, "message_type")) {
      validateAs("letta/LettaStreamingResponse", data, where);
      if (data.message_type !== "error_message") throw new StreamError(`${where}: an \`event: error\` carries a ${JSON.stringify(data.message_type)} frame`);
      state.recordSeq(data);
    } else validateAs("letta/LettaSseError", data, where);
    state.result.errors.push(data);
    state.ended = true;
    state.account(index, "error");
  } else if (event.type === "cancelled") {
    const data = validateAs("letta/LettaSseCancelled", jsonObject(event.data, where), where);
    if (state.result.cancelled === null) state.result.cancelled = data;
    state.ended = true;
    state.account(index, "cancelled");
  } else {
    state.account(index, "dropped", "unknown_event", `${where}: unknown event type ${JSON.stringify(event.type)}`);
  }
}

function afterStopDropped(state, frames) {
  const stop = state.closing;
  if (stop === null) return frames;
  const kept = [];
  const reason = droppedAs("message");
  for (const f of frames) {
    const later = stop.seq !== null && f.seq !== null ? f.seq > stop.seq : f.index > stop.index;
    if (later) state.account(f.index, "dropped", reason, `${f.where}: a ${f.data.message_type} after the ${stop.data.message_type}`);
    else kept.push(f);
  }
  return kept;
}

function inSeqOrder(state, frames) {
  if (frames.every((f) => f.seq === null)) return frames;
  const bySeq = new Map();
  const repeats = [];
  for (const f of frames) {
    if (f.seq === null) throw new StreamError(`${f.where}: has no seq_id while other frames of the stream have one`);
    const seen = bySeq.get(f.seq);
    if (seen === undefined) bySeq.set(f.seq, f);
    else repeats.push([seen, f]);
  }
  state.repeats = repeats;
  return [...bySeq.keys()].sort(bySize).map((s) => bySeq.get(s));
}

// Math.max(...xs) passes every element as an argument: past about 130,000 frames the stack overflows.
function largest(values) {
  let found = values[0];
  for (const value of values) if (value > found) found = value;
  return found;
}

function smallest(values) {
  let found = values[0];
  for (const value of values) if (value < found) found = value;
  return found;
}

/** What a complete stream lacks at its end, in words (the same as Python's `_missing_end`). */
function missingEnd(result, sse) {
  let what;
  if (result.stopReason === null && !(sse && result.done)) what = sse ? "a stop_reason and `data: [DONE]`" : "a stop_reason";
  else if (result.stopReason === null) what = "a stop_reason before its `data: [DONE]`";
  else what = "`data: [DONE]` after its stop_reason";
  return `it ends without ${what} (or an error or a cancellation)`;
}

// Every seq_id between the first and the last one seen must be there, except after the last message
// frame (Python's _check_gaps). A gap throws, or with reportGaps is returned as [first, last] missing.
function checkGaps(state, lastMessageSeq) {
  const seen = [...new Set(state.seqs)].sort(bySize);
  let tail = 0n;
  const holes = [];
  for (let i = 0; i + 1 < seen.length; i++) {
    const before = seen[i];
    const after = seen[i + 1];
    if (after === before + 1n) continue;
    const missing = after - before - 1n;
    if (before >= lastMessageSeq) {
      tail += missing;
      if (tail <= BigInt(state.hidden)) continue;
    }
    if (!state.reportGaps) {
      const gap = missing === 1n ? `${before + 1n}` : `${before + 1n}..${after - 1n}`;
      throw new StreamError(`gap in seq_id: ${before} is followed by ${after} (missing ${gap})`);
    }
    holes.push([before + 1n, after - 1n]);
  }
  return holes;
}

// The index of the first of `seqs` (ascending bigints) above `value` (or at least it, with `orEqual`).
function firstAbove(seqs, value, orEqual) {
  let lo = 0;
  let hi = seqs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (seqs[mid] > value || (orEqual && seqs[mid] === value)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Each gap with the messages of the message frames on either side of it (Python's _located). */
function located(state, frames, holes) {
  const numbered = frames.filter((f) => f.seq !== null); // in seq_id order (inSeqOrder)
  const seqs = numbered.map((f) => f.seq);
  const messageOf = (f) => {
    const account = state.accounts.get(f.index);
    return account.message === undefined ? null : account.message;
  };
  return holes.map(([first, last]) => {
    const below = firstAbove(seqs, first, true);
    const above = firstAbove(seqs, last, false);
    return {
      first: seqOut(first),
      last: seqOut(last),
      messageBefore: below > 0 ? messageOf(numbered[below - 1]) : null,
      messageAfter: above < numbered.length ? messageOf(numbered[above]) : null,
    };
  });
}

/** JSON equality: true is not 1; iterative, for deep values. */
function same(a, b) {
  const stack = [[a, b]];
  while (stack.length) {
    const [x, y] = stack.pop();
    if (x !== null && typeof x === "object") {
      if (y === null || typeof y !== "object" || Array.isArray(x) !== Array.isArray(y)) return false;
      if (Array.isArray(x)) {
        if (x.length !== y.length) return false;
        for (let i = 0; i < x.length; i++) stack.push([x[i], y[i]]);
      } else {
        const kx = Object.keys(x);
        if (kx.length !== Object.keys(y).length) return false;
        for (const k of kx) {
          if (!Object.prototype.hasOwnProperty.call(y, k)) return false;
          stack.push([x[k], y[k]]);
        }
      }
    } else if (x !== y) return false;
  }
  return true;
}

function sameFrame(a, b) {
  return same({ ...a.data, seq_id: null }, { ...b.data, seq_id: null });
}

function checkSameMessage(first, f) {
  for (const name of ["id", "message_type"]) {
    if (f.data[name] !== first.data[name]) {
      throw new StreamError(`${f.where}: does not belong to the message being built (${frameKey(first.data)}): ${name} is ${JSON.stringify(f.data[name])}, not ${JSON.stringify(first.data[name])}`);
    }
  }
}

/** Frames, in their final order, into messages (by otid), a repeat checked against what was merged;
 * one frame at a time, so that a stream can be followed as it comes (`Preview`). */
class Grouper {
  constructor(state, numbered) {
    this.state = state; // where a dropped frame is accounted for
    this.numbered = numbered;
    this.messages = new Map();
    this.owner = new Map();
    this.current = null;
    this.cursor = null;
    this.conflicted = false;
  }

  add(f) {
    const key = frameKey(f.data);
    let message = this.messages.get(key);
    if (message === undefined) {
      message = { first: f, frames: [], accounts: [], key };
      this.messages.set(key, message);
      this.cursor = null;
      this.conflicted = false;
    } else if (message !== this.current) {
      if (this.numbered) throw new StreamError(`${f.where}: belongs to ${key}, which another message interrupted`);
      this.cursor = 0;
      this.conflicted = false;
    }
    this.current = message;
    this.owner.set(f.index, message);
    checkSameMessage(message.first, f);
    if (this.cursor !== null && this.cursor < message.frames.length) {
      if (!this.conflicted && sameFrame(message.frames[this.cursor], f)) message.accounts.push([f, "replay"]);
      else {
        this.conflicted = true;
        this.state.account(f.index, "dropped", "replay_conflict", `${f.where}: replays ${key} with other content`);
      }
      this.cursor += 1;
      return;
    }
    this.cursor = null;
    if (this.conflicted) {
      this.state.account(f.index, "dropped", "replay_conflict", `${f.where}: continues a conflicting replay of ${key}`);
      return;
    }
    const kind = f.data.message_type;
    if (message.frames.length && !CALLS.has(kind) && !Object.prototype.hasOwnProperty.call(TEXT, kind)) {
      if (sameFrame(message.frames[0], f)) message.accounts.push([f, "replay"]);
      else this.state.account(f.index, "dropped", "replay_conflict", `${f.where}: a ${kind} is not sent in parts`);
      return;
    }
    message.frames.push(f);
    message.accounts.push([f, "message"]);
  }
}

function group(state, frames) {
  const grouper = new Grouper(state, frames.some((f) => f.seq !== null));
  for (const f of frames) grouper.add(f);
  for (const [seen, repeat] of state.repeats) {
    const owner = grouper.owner.get(seen.index);
    if (owner !== undefined && same(seen.data, repeat.data)) owner.accounts.push([repeat, "replay"]);
    else state.account(repeat.index, "dropped", "replay_conflict", `${repeat.where}: differs from ${seen.where}, same seq_id`);
  }
  return [...grouper.messages.values()];
}

function mergeCalls(frames) {
  const calls = new Map();
  let current = null;
  for (const f of frames) {
    let value = f.data.tool_calls;
    if (value === undefined || value === null) value = f.data.tool_call;
    for (const part of Array.isArray(value) ? value : [value]) {
      if (part === null || typeof part !== "object" || Array.isArray(part)) continue;
      const callId = part.tool_call_id;
      let call;
      if (callId === undefined || callId === null) {
        if (current === null) throw new StreamError(`${f.where}: a fragment without tool_call_id before any call started`);
        call = current;
      } else {
        call = calls.get(callId);
        if (call === undefined) {
          call = { callId, name: null, pieces: [] };
          calls.set(callId, call);
        }
      }
      const name = part.name;
      if (name !== undefined && name !== null) {
        if (call.name !== null && call.name !== name) throw new StreamError(`${f.where}: call ${call.callId} renamed from ${JSON.stringify(call.name)} to ${JSON.stringify(name)}`);
        call.name = name;
      }
      if (part.arguments) call.pieces.push(part.arguments);
      current = call;
    }
  }
  const out = [];
  for (const call of calls.values()) {
    if (call.name === null) throw new Incomplete(`call ${call.callId}: no fragment gave its name (truncated stream?)`);
    const args = call.pieces.join("");
    try {
      parseJsonText(args);
    } catch (err) {
      throw new Incomplete(`call ${call.callId}: arguments are not complete JSON after reassembly (${err.message}): ${JSON.stringify(args.slice(0, 80))} (truncated stream?)`);
    }
    out.push({ name: call.name, arguments: args, tool_call_id: call.callId });
  }
  if (!out.length) throw new Incomplete(`${frameKey(frames[0].data)}: no tool call in its frames`);
  return out;
}

function merge(message) {
  const frames = message.frames;
  const first = frames[0];
  const last = frames[frames.length - 1];
  const kind = first.data.message_type;
  const merged = { ...first.data };
  const lastSeq = last.data.seq_id;
  if ("seq_id" in merged || (lastSeq !== undefined && lastSeq !== null)) merged.seq_id = lastSeq === undefined ? null : lastSeq;
  if (CALLS.has(kind)) {
    const calls = mergeCalls(frames);
    merged.tool_call = calls[0];
    merged.tool_calls = calls;
  } else if (Object.prototype.hasOwnProperty.call(TEXT, kind)) {
    const name = TEXT[kind];
    const pieces = frames.map((f) => f.data[name]).filter((p) => p !== undefined && p !== null);
    if (pieces.every((p) => typeof p === "string")) {
      if (pieces.length) merged[name] = pieces.join("");
    } else if (pieces.every((p) => Array.isArray(p))) merged[name] = pieces.flat();
    else throw new StreamError(`${last.where}: mixes string and list ${name} pieces in ${message.key}`);
    const signatures = frames.map((f) => f.data.signature).filter((s) => s !== undefined && s !== null);
    if (signatures.length) merged.signature = signatures[signatures.length - 1];
  }
  const problem = firstViolation("letta/LettaMessage", merged);
  if (problem !== null) throw new StreamError(`${message.key}: the merged message is not a valid letta/LettaMessage at ${problem}`);
  return merged;
}

function finishStream(state, options, sse) {
  const complete = !options || options.complete === undefined ? true : Boolean(options.complete);
  const strict = Boolean(options && options.strict);
  const result = state.result;
  let frames = afterStopDropped(state, state.candidates);
  frames = inSeqOrder(state, frames);
  let holes = [];
  if (state.seqs.length) {
    const numbered = frames.filter((f) => f.seq !== null).map((f) => f.seq);
    holes = checkGaps(state, numbered.length ? largest(numbered) : smallest(state.seqs) - 1n);
  }
  result.lastSeqId = state.seqs.length ? seqOut(largest(state.seqs)) : null;
  let finished = GRAMMAR.final.includes(state.order) || state.ended;
  if (sse && !(result.done || state.ended)) finished = false;
  if (complete && state.truncated) throw new StreamError("stream truncated: the body ends inside its last event (no blank line after it)");
  if (complete && !finished) {
    if (result.stopReason !== null && !(GRAMMAR.final.includes(state.order) || state.ended)) throw new StreamError(`stream truncated: it ends in state '${state.order}' of its grammar, not an end`);
    throw new StreamError(`stream truncated: ${missingEnd(result, sse)}`);
  }
  const messages = group(state, frames);
  const cutShort = state.ended || state.truncated || !finished || holes.length > 0; // a gap may cut a message too
  for (const message of messages) {
    let built;
    try {
      built = merge(message);
    } catch (err) {
      if (!(err instanceof Incomplete)) throw err;
      if (!cutShort) throw new StreamError(err.message);
      for (const [f] of message.accounts) state.account(f.index, "dropped", "incomplete_message", err.message);
      continue;
    }
    const at = result.messages.length;
    result.messages.push(built);
    for (const [f, outcome] of message.accounts) state.accounts.set(f.index, { index: f.index, outcome, message: at });
  }
  result.frames = [...state.accounts.keys()].sort((a, b) => a - b).map((i) => state.accounts.get(i));
  result.dropped = result.frames.filter((a) => a.outcome === "dropped");
  result.gaps = located(state, frames, holes);
  if (strict) {
    if (result.errors.length) {
      const first = result.errors[0];
      throw new StreamError(`strict: the server reported an error: ${"message_type" in first ? first.message : first.error}`);
    }
    if (result.cancelled !== null) throw new StreamError(`strict: the server cancelled the stream: ${result.cancelled.message}`);
    if (result.gaps.length) {
      // before the dropped frames: a gap leaves messages incomplete
      const { first, last } = result.gaps[0];
      throw new StreamError(`strict: ${result.gaps.length} gap(s) in seq_id; first: missing ${first === last ? first : `${first}..${last}`}`);
    }
    if (result.dropped.length) throw new StreamError(`strict: ${result.dropped.length} frame(s) dropped; first: ${result.dropped[0].detail}`);
  }
  return result;
}

// A State for `options` ({complete, strict, gaps}): gaps "error" (the default) or "report".
function stateFor(options) {
  const state = new State();
  const gaps = options && options.gaps !== undefined ? options.gaps : "error";
  if (gaps !== "error" && gaps !== "report") throw new TypeError(`gaps is "error" or "report", not ${JSON.stringify(gaps)}`);
  state.reportGaps = gaps === "report";
  state.keepUnknown = keepsUnknown(options);
  return state;
}

/** Reassemble Letta stream frames (plain objects), given in arrival order. Options: {complete = true,
 * strict = false, gaps = "error"}; gaps "report" lists seq_id gaps in the result instead of throwing. */
function reassemble(frames, options) {
  const state = stateFor(options);
  let index = 0;
  for (const frame of frames) {
    const where = `frame ${index}`;
    if (frame === null || typeof frame !== "object" || Array.isArray(frame)) throw new StreamError(`${where}: a frame is a JSON object`);
    take(state, index, where, { ...frame });
    index += 1;
  }
  return finishStream(state, options, false);
}

function isBody(body) {
  return typeof body === "string" || isBytes(body) || (body !== null && body !== undefined && typeof body[Symbol.iterator] === "function");
}

// Take every event of one SSE body, numbered from `index`; the next number.
function readBody(state, body, index) {
  const events = iterSseEvents(body);
  for (;;) {
    let step;
    try {
      step = events.next();
    } catch (err) {
      if (err instanceof TypeError && !(err instanceof WrongChunk)) throw new StreamError(`event ${index}: the body is not UTF-8`);
      throw err;
    }
    if (step.done) return index;
    takeEvent(state, index, step.value);
    index += 1;
  }
}

/** Reassemble a raw Letta SSE body: a string, UTF-8 bytes, or an iterable of string / Uint8Array chunks. */
function reassembleSse(body, options) {
  if (!isBody(body)) throw wrongBody(body); // not "the body is not UTF-8", which iterating it would say
  const state = stateFor(options);
  readBody(state, body, 0);
  return finishStream(state, options, true);
}

/** Reassemble one run from the SSE bodies of its connections, in the order they were opened (the
 * first request's, then each resumed one's): Python's reassemble_resumed. Options: {complete, strict}. */
function reassembleResumed(bodies, options) {
  if (bodies === null || bodies === undefined || typeof bodies === "string" || typeof bodies[Symbol.iterator] !== "function") {
    throw new TypeError(`reassembleResumed takes an iterable of SSE bodies (one per connection), not ${kindOf(bodies)}`);
  }
  const state = stateFor({ gaps: "report", unknown: options ? options.unknown : undefined });
  state.oneRun = true;
  let index = 0;
  for (const body of bodies) {
    if (!isBody(body)) throw wrongBody(body);
    if (state.truncated) {
      // the connection before was cut inside its last event, then resumed
      state.truncated = false;
      state.account(index - 1, "cut");
    }
    index = readBody(state, body, index);
  }
  return finishStream(state, options, true);
}

// ---- a stream as it comes ----------------------------------------------------------------------

// The preview's messages drop nothing into the result's accounts: finishStream accounts for every frame.
const NO_ACCOUNTS = { account() {} };

/** The frame is dropped for coming after the frame that closed the messages (as afterStopDropped). */
function afterClosing(state, f) {
  const stop = state.closing;
  if (stop === null) return false;
  return stop.seq !== null && f.seq !== null ? f.seq > stop.seq : f.index > stop.index;
}

/** A message merged, or null if it is not complete (yet, or ever: the end tells). */
function built(message) {
  try {
    return merge(message);
  } catch (err) {
    if (err instanceof Incomplete) return null;
    throw err;
  }
}

/** Bring `shown` (what was yielded, by index) to `list` from index `from` on, saying how. */
function reconcile(shown, list, from, out) {
  for (let i = from; i < list.length; i++) {
    if (i >= shown.length) out.push({ type: "message", index: i, message: list[i] });
    else if (shown[i] !== list[i] && !same(shown[i], list[i])) out.push({ type: "revised", index: i, message: list[i] });
    shown[i] = list[i];
  }
  if (list.length < shown.length) {
    out.push({ type: "withdrawn", index: list.length });
    shown.length = list.length;
  }
}

/**
 * Follows the frames of a stream as they arrive, by the rules finishStream applies at the end: the
 * message frames are fed to a Grouper in their final order (arrival order, or seq_id order once the
 * seq_ids seen are contiguous up to them), and a message is merged when the stream has moved past it
 * (a frame of another message, or the frame that closes the messages). What the result would list
 * then is yielded; the result at the end is still finishStream's, and any difference is reported.
 */
class Preview {
  constructor(state) {
    this.state = state;
    this.seen = 0; // candidates taken
    this.seqsSeen = 0; // seq_ids taken
    this.numbered = null; // whether the message frames have seq_ids: the first one says
    this.grouper = null;
    this.order = []; // the messages moved past, in the order group() lists them
    this.display = []; // those that merge: the messages the result would list now
    this.shown = [];
    this.dirty = Infinity; // the first index of `display` that may differ from `shown`
    this.closed = false; // no message frame to come counts
    this.broken = false; // cannot follow (an error finishStream will report, or a pathological order)
    // With seq_ids: every seq_id from `base` to `frontier` has been seen; `pending` holds the seq_ids
    // above it (the message frame at each, or null), `fed` the frames fed so far.
    this.base = null;
    this.frontier = null;
    this.pending = new Map();
    this.fed = [];
    this.work = 0;
  }

  /** After each event taken: the events to yield. */
  step() {
    const out = [];
    if (this.broken) return out;
    if (!this.closed) {
      try {
        this.follow();
      } catch (err) {
        if (!(err instanceof StreamError)) throw err;
        this.broken = true;
        return out;
      }
    }
    if (this.dirty !== Infinity) reconcile(this.shown, this.display, this.dirty, out);
    this.dirty = Infinity;
    return out;
  }

  /** At the end: what differs between what was yielded and the result's messages. */
  end(messages) {
    const out = [];
    reconcile(this.shown, messages, 0, out);
    return out;
  }

  follow() {
    const { candidates, seqs } = this.state;
    for (; this.seen < candidates.length; this.seen++) this.arrive(candidates[this.seen]);
    for (; this.seqsSeen < seqs.length; this.seqsSeen++) if (this.numbered !== false) this.track(seqs[this.seqsSeen], null);
    if (this.numbered) this.advance();
    const stop = this.state.closing;
    if (stop === null) return;
    if (this.numbered) {
      if (stop.seq === null) this.flush(); // every message frame that counts has come
      else if (this.frontier < stop.seq) return;
    }
    this.closed = true;
    if (this.grouper !== null && this.grouper.current !== null) this.pass(this.grouper.current);
  }

  arrive(f) {
    if (this.numbered === null) {
      this.numbered = f.seq !== null;
      this.grouper = new Grouper(NO_ACCOUNTS, this.numbered);
    }
    if (afterClosing(this.state, f)) return;
    if ((f.seq !== null) !== this.numbered) throw new StreamError(`${f.where}: seq_ids in some message frames only`);
    if (this.numbered) this.track(f.seq, f);
    else this.feed(f);
  }

  track(seq, f) {
    if (this.base === null) {
      this.base = seq;
      this.frontier = seq - 1n;
    } else if (seq < this.base) this.lower(seq);
    if (seq <= this.frontier) return; // a repeat: finishStream checks it, the messages stay as they are
    const entry = this.pending.get(seq);
    if (entry === undefined || (entry === null && f !== null)) this.pending.set(seq, f);
  }

  /** A seq_id below all seen (a reordered background stream): feed again from it. Bounded, so that
   * a stream in falling order stays linear: past the bound only the end says. */
  lower(seq) {
    this.work += this.fed.length + Number(this.frontier - this.base) + 1;
    if (this.work > 4 * this.state.seqs.length + 4096) throw new StreamError("seq_ids too often below all seen");
    for (let s = this.base; s <= this.frontier; s++) this.pending.set(s, null);
    for (const f of this.fed) this.pending.set(f.seq, f);
    this.fed = [];
    this.grouper = new Grouper(NO_ACCOUNTS, true);
    this.order = [];
    this.display = [];
    this.dirty = 0;
    this.base = seq;
    this.frontier = seq - 1n;
  }

  advance() {
    for (;;) {
      const next = this.frontier + 1n;
      const f = this.pending.get(next);
      if (f === undefined) return;
      this.pending.delete(next);
      this.frontier = next;
      if (f !== null && !afterClosing(this.state, f)) {
        this.fed.push(f);
        this.feed(f);
      }
    }
  }

  flush() {
    const waiting = [...this.pending.values()].filter((f) => f !== null && !afterClosing(this.state, f));
    this.pending.clear();
    for (const f of waiting.sort((a, b) => bySize(a.seq, b.seq))) this.feed(f);
  }

  feed(f) {
    const before = this.grouper.current;
    this.grouper.add(f);
    if (before !== null && before !== this.grouper.current) this.pass(before);
  }

  /** The stream moved past `message`: merge it (again if frames were added since). */
  pass(message) {
    const first = message.built === undefined;
    if (!first && message.builtFrom === message.frames.length) return;
    const before = message.built;
    message.built = built(message);
    message.builtFrom = message.frames.length;
    if (first) {
      this.order.push(message);
      if (message.built !== null) {
        this.display.push(message.built);
        this.dirty = Math.min(this.dirty, this.display.length - 1);
      }
    } else if (message.built !== before) {
      // a replay extended a message passed before (a retried request): the list is built again
      this.display = this.order.map((m) => m.built).filter((b) => b !== null);
      this.dirty = 0;
    }
  }
}

/** A Uint8Array, also from another realm (an iframe, a worker, Node's vm). */
function isBytes(value) {
  return value instanceof Uint8Array || Object.prototype.toString.call(value) === "[object Uint8Array]";
}

function kindOf(value) {
  if (value === null) return "null";
  if (typeof value !== "object" && typeof value !== "function") return typeof value;
  let name = value.constructor && value.constructor.name;
  if (!name || name === "Object") name = Object.prototype.toString.call(value).slice(8, -1); // AsyncGenerator
  const body = value.body !== null && typeof value.body === "object" && typeof value.body.getReader === "function";
  return body ? `${name} (its .body is a ReadableStream)` : name;
}

const ACCEPTED = "a ReadableStream, an AsyncIterable (a Node Readable too), an Iterable, a string or a Uint8Array, of string or Uint8Array chunks";

/** Reads the chunks of a ReadableStream: `close` releases its lock, cancelling it first if asked. */
function streamChunks(stream) {
  const reader = stream.getReader();
  let open = true;
  return {
    next: () => reader.read(),
    close(cancel, reason) {
      if (!open) return Promise.resolve();
      open = false;
      const done = cancel ? reader.cancel(reason) : Promise.resolve();
      try {
        reader.releaseLock();
      } catch {
        // an implementation that will not release with a read pending: the cancel ends it anyway
      }
      return done;
    },
  };
}

/** Reads the chunks of an iterator (async or not): `close` returns it, after `destroy` if given. */
function iteratorChunks(iterator, destroy) {
  let open = true;
  return {
    next: () => iterator.next(),
    close(cancel) {
      if (!open) return Promise.resolve();
      open = false;
      if (!cancel) return Promise.resolve();
      try {
        if (destroy) destroy();
        return Promise.resolve(typeof iterator.return === "function" ? iterator.return() : undefined);
      } catch (err) {
        return Promise.reject(err); // not thrown from a finally, where it would hide the error that led there
      }
    },
  };
}

function wrongBody(body) {
  const later = body !== null && typeof body === "object" && (typeof body.getReader === "function" || typeof body[Symbol.asyncIterator] === "function");
  const hint = later ? ": reassembleSseStream reads it as it arrives" : "";
  return new TypeError(`reassembleSse accepts a string, a Uint8Array or an Iterable of string or Uint8Array chunks; got ${kindOf(body)}${hint}`);
}

/** How to open the chunks of `source`, or a TypeError saying what is accepted. */
function chunkSource(source) {
  if (typeof source === "string" || isBytes(source)) return () => iteratorChunks([source][Symbol.iterator]());
  if (source !== null && (typeof source === "object" || typeof source === "function")) {
    if (typeof source.getReader === "function") return () => streamChunks(source);
    if (typeof source[Symbol.asyncIterator] === "function") {
      // A Node Readable is destroyed at once: its iterator's return would wait for a pending read.
      const destroy = typeof source.pipe === "function" && typeof source.destroy === "function" ? () => source.destroy() : null;
      return () => iteratorChunks(source[Symbol.asyncIterator](), destroy);
    }
    if (typeof source[Symbol.iterator] === "function") return () => iteratorChunks(source[Symbol.iterator]());
  }
  throw new TypeError(`reassembleSseStream accepts ${ACCEPTED}; got ${kindOf(source)}`);
}

/** A chunk's events (the last ones at the end); bytes that are not UTF-8 are the same StreamError as
 * reassembleSse's. */
function eventsOf(parser, step, index) {
  if (!step.done && typeof step.value !== "string" && !isBytes(step.value)) {
    throw new TypeError(`reassembleSseStream reads string or Uint8Array chunks; got ${kindOf(step.value)}`);
  }
  try {
    if (!step.done) return parser.feed(step.value);
    const last = parser.close();
    return last === null ? [] : [last];
  } catch (err) {
    if (err instanceof TypeError) throw new StreamError(`event ${index}: the body is not UTF-8`);
    throw err;
  }
}

/** `promise`, or the signal's reason if it aborts first. */
function untilAbort(promise, signal) {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

async function* readStream(open, options, signal) {
  const chunks = open();
  if (signal && signal.aborted) {
    await chunks.close(true, signal.reason).catch(() => {}); // aborted before it began: cancelled all the same
    throw signal.reason;
  }
  // An abort cancels the source at once, also while the consumer holds a yielded event.
  const onAbort = () => chunks.close(true, signal.reason).catch(() => {});
  if (signal) signal.addEventListener("abort", onAbort, { once: true });
  let finished = false;
  let failure;
  try {
    const parser = new SseParser();
    const state = stateFor(options);
    const preview = new Preview(state);
    let index = 0;
    for (;;) {
      if (signal && signal.aborted) throw signal.reason;
      const step = await (signal ? untilAbort(chunks.next(), signal) : chunks.next());
      for (const event of eventsOf(parser, step, index)) {
        takeEvent(state, index, event);
        index += 1;
        for (const out of preview.step()) {
          yield out;
          if (signal && signal.aborted) throw signal.reason;
        }
      }
      if (step.done) break;
    }
    finished = true;
    const result = finishStream(state, options, true);
    yield* preview.end(result.messages);
    yield { type: "end", result };
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    if (signal) signal.removeEventListener("abort", onAbort);
    const closing = chunks.close(!finished, failure).catch(() => {});
    // after an abort a read may still be pending, which the source's return would wait for
    if (!(signal && signal.aborted)) await closing;
  }
}

/**
 * Reassemble a Letta SSE body as it arrives: a ReadableStream (fetch's `response.body`), a Node
 * Readable or any AsyncIterable of string / Uint8Array chunks, or what reassembleSse takes. An async
 * iterator of events: `message` as soon as the stream has moved past one, `revised` / `withdrawn`
 * where a later frame changes what was yielded, and last `end` with reassembleSse's result. Options:
 * {complete = true, strict = false, signal}.
 */
function reassembleSseStream(source, options) {
  const open = chunkSource(source);
  const signal = options ? options.signal : undefined;
  if (signal !== undefined && signal !== null && !(typeof signal.aborted === "boolean" && typeof signal.addEventListener === "function")) {
    throw new TypeError(`reassembleSseStream: options.signal is an AbortSignal; got ${kindOf(signal)}`);
  }
  return readStream(open, options, signal || null);
}

export { SseParser, StreamError, iterSseEvents, parseJsonText, reassemble, reassembleResumed, reassembleSse, reassembleSseStream };
