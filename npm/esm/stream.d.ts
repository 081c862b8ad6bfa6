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

export type Outcome = "message" | "replay" | "ping" | "stop_reason" | "usage" | "error" | "cancelled" | "done" | "dropped";

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
}

export interface ReassembleOptions {
  /** Default true: a stream that neither stopped nor ended in an error or cancellation is an error. */
  complete?: boolean;
  /** Default false: when true, any error, cancellation or dropped frame throws StreamError. */
  strict?: boolean;
}

export type SseBody = string | Uint8Array | Iterable<string | Uint8Array>;

export declare function iterSseEvents(body: SseBody): Generator<SseEvent, void, undefined>;
/** JSON.parse under chatschema.jsontext's rules (no 1e400, no lone surrogates, depth <= 1024). */
export declare function parseJsonText(text: string): unknown;
export declare function reassemble(frames: Iterable<object>, options?: ReassembleOptions): LettaStream;
export declare function reassembleSse(body: SseBody, options?: ReassembleOptions): LettaStream;
