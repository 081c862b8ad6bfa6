// Types of the Letta stream reassembly (stream.js), the same rules as Python's chatschema.letta.stream.
import type * as letta from "./letta.js";

/** The stream cannot be reassembled faithfully; the one-line message says where and why. */
export declare class StreamError extends Error {}

/** One dispatched SSE event (WHATWG EventSource rules). */
export interface SseEvent {
  type: string;
  data: string;
  lastEventId: string;
  retry: number | null;
  /** The 1-based number of the line that ended the event. */
  line: number;
  /** False for an event the body ended in the middle of (a browser drops it silently). */
  terminated: boolean;
}

/** An incremental SSE parser: feed strings or UTF-8 bytes in chunks of any size, then close. */
export declare class SseParser {
  feed(chunk: string | Uint8Array): SseEvent[];
  close(): SseEvent | null;
}

/** `cut` (reassembleResumed only): an event a connection ended inside before the run was resumed.
 * `unknown` (with `unknown: "keep"`): a frame of a type this version does not know, kept in `unknown`. */
export type Outcome = "message" | "replay" | "ping" | "stop_reason" | "usage" | "error" | "cancelled" | "done" | "cut" | "unknown" | "dropped";

export type DropReason =
  | "after_stop"
  | "duplicate_stop_reason"
  | "duplicate_usage"
  | "after_done"
  | "unknown_event"
  | "replay_conflict"
  | "unterminated_event"
  | "incomplete_message";

/** What became of one frame (one SSE event), by its position in arrival order. */
export interface FrameAccount {
  index: number;
  outcome: Outcome;
  /** For "message" and "replay": the index in `messages`. */
  message?: number;
  /** For "dropped": why. */
  reason?: DropReason;
  /** For "dropped": one line with the specifics. */
  detail?: string;
}

/** A reassembled stream: the complete messages, the frames that are not messages, and an account of every frame. */
export interface LettaStream {
  messages: letta.LettaMessage[];
  stopReason: letta.LettaStopReason | null;
  usage: letta.LettaUsageStatistics | null;
  errors: Array<letta.LettaErrorMessage | letta.LettaSseError>;
  cancelled: letta.LettaSseCancelled | null;
  done: boolean;
  /** The highest seq_id seen: the cursor to resume a background stream after. A `bigint` beyond
   * `Number.MAX_SAFE_INTEGER`, where a number would not be exact. */
  lastSeqId: number | bigint | null;
  frames: FrameAccount[];
  dropped: FrameAccount[];
  /** The seq_ids that never came, with `gaps: "report"` and from reassembleResumed (by default a gap throws). */
  gaps: SeqGap[];
  /** With `unknown: "keep"`: the frames whose `message_type` this version does not know, as they came. */
  unknown: letta.UnknownLettaStreamingResponse[];
}

/** seq_ids `first`..`last` never came. The messages on either side may lack frames of theirs that had those numbers. */
export interface SeqGap {
  first: number | bigint;
  last: number | bigint;
  /** The index in `messages` of the message whose frame came just before the gap; null without such
   * a frame, or if its message was dropped (`incomplete_message`). */
  messageBefore: number | null;
  /** The same for the frame just after the gap. */
  messageAfter: number | null;
}

export interface ReassembleOptions {
  /** Default true: a stream that neither stopped nor ended in an error or cancellation is an error. */
  complete?: boolean;
  /** Default false: when true, any error, cancellation, dropped frame or reported gap throws StreamError. */
  strict?: boolean;
  /** Default "error": a seq_id gap throws StreamError; "report" lists it in the result's `gaps`. */
  gaps?: "error" | "report";
  /** Default "error": a frame of a type this version does not know throws StreamError; "keep" keeps it in `unknown`. */
  unknown?: "error" | "keep";
}

/** A piece of an SSE body: text, or UTF-8 bytes cut anywhere (inside a character too). */
export type SseChunk = string | Uint8Array;

export type SseBody = string | Uint8Array | Iterable<SseChunk>;

/** A WHATWG ReadableStream (fetch's `response.body`), as far as reassembleSseStream uses it: written
 * out, so that these types need neither the DOM's nor Node's. */
export interface ReadableStreamLike<T> {
  getReader(): {
    read(): Promise<{ done: boolean; value?: T | undefined }>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  };
}

/** An AbortSignal, as far as reassembleSseStream uses it. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** What reassembleSseStream reads: a ReadableStream, a Node Readable or any AsyncIterable of chunks,
 * or what reassembleSse reads. */
export type SseSource = SseBody | ReadableStreamLike<SseChunk> | AsyncIterable<SseChunk>;

export interface StreamOptions extends ReassembleOptions {
  /** Aborting cancels the source and makes the iterator throw the signal's reason (an `AbortError`
   * DOMException unless another was given), as fetch does. */
  signal?: AbortSignalLike | null;
}

/** A message, yielded as soon as the stream has moved past it: a frame of another message, or the
 * frame that closes the messages, came after its last frame (and, with seq_ids, every seq_id from
 * the lowest seen up to its last frame's has been seen). `index` is its place in the result's
 * `messages`. */
export interface StreamMessage {
  type: "message";
  index: number;
  message: letta.LettaMessage;
}

/** A later frame changed the message yielded at `index`: a retried request replayed and extended it,
 * or a frame with a seq_id below all the others came late and put a message before it. */
export interface StreamRevision {
  type: "revised";
  index: number;
  message: letta.LettaMessage;
}

/** The messages yielded at `index` and after are no longer part of the result (the ones before stand). */
export interface StreamWithdrawal {
  type: "withdrawn";
  index: number;
}

/** The last event: reassembleSse's result for the whole body. Applied in order, the events before it
 * give exactly `result.messages`. */
export interface StreamEnd {
  type: "end";
  result: LettaStream;
}

export type StreamEvent = StreamMessage | StreamRevision | StreamWithdrawal | StreamEnd;

export declare function iterSseEvents(body: SseBody): Generator<SseEvent, void, undefined>;
/** JSON.parse under chatschema.jsontext's rules (no 1e400, no lone surrogates, depth <= 1024). */
export declare function parseJsonText(text: string): unknown;
export declare function reassemble(frames: Iterable<object>, options?: ReassembleOptions): LettaStream;
/** The whole body at once. A body of another kind (a ReadableStream, say) is a TypeError. */
export declare function reassembleSse(body: SseBody, options?: ReassembleOptions): LettaStream;
/**
 * Reassemble one run from the SSE bodies of its connections, in the order they were opened: the
 * first request's, then each resumed one's (`starting_after` the last seq_id received). Frames two
 * connections share are verified replays, seq_ids none brought are reported in `gaps`, an event a
 * connection ended inside is accounted `cut`, and a frame of another run throws StreamError.
 */
export declare function reassembleResumed(bodies: Iterable<SseBody>, options?: Omit<ReassembleOptions, "gaps">): LettaStream;
/**
 * Reassemble a Letta SSE body as it arrives, as events (see StreamEvent); the last, `end`, carries
 * what reassembleSse gives for the whole body, and a StreamError is thrown from the loop where
 * reassembleSse throws it. Leaving the loop early, or aborting `options.signal`, cancels the source
 * (a ReadableStream's lock is released however the loop ends). A source of another kind is a
 * TypeError at the call; a chunk of another kind, one from the loop.
 */
export declare function reassembleSseStream(source: SseSource, options?: StreamOptions): AsyncGenerator<StreamEvent, void, undefined>;
