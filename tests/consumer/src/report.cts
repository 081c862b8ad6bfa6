// What the package does at run time, as JSON: called by esm.mts (ES module) and cjs.cts (CommonJS)
// with the modules each imported its own way; tests/test_ts_consumer.py expects the same from both.
// The parameters are typed by what is used, not by the package's declarations: the ESM and the
// CommonJS declarations are two copies, and their brands (unique symbols) differ.
import type { letta } from "chatschema";

type Check = (name: "docent/ChatMessage" | "letta/LettaPing", payload: unknown) => boolean;
interface Named {
  isValid: Check;
  validate: (name: "docent/ChatMessage", payload: unknown) => void;
  violations: (name: "docent/ChatMessage", payload: unknown) => { path: string; instancePath: string }[];
  PayloadError: abstract new (...args: never[]) => Error & { violations: { path: string }[] };
  letta: { isLettaPing: (value: unknown) => boolean };
}
interface Stream {
  reassembleSse: (body: string) => { stopReason: { stop_reason: string } | null };
}

function report(chatschema: Named, named: Named, stream: Stream, entry: { isToolCallMessage: (value: unknown) => boolean }): string {
  const ping: letta.LettaPing = { id: "message-1", date: "2025-10-01T12:30:45+00:00", message_type: "ping" };
  const call = { ...ping, message_type: "tool_call_message", tool_call: { name: "f", arguments: "{}", tool_call_id: "call_1" } };
  const sse = 'data: {"message_type": "stop_reason", "stop_reason": "end_turn"}\n\ndata: [DONE]\n\n';
  const thrown = (payload: unknown): string[] => {
    try {
      named.validate("docent/ChatMessage", payload);
      return [];
    } catch (err) {
      return err instanceof named.PayloadError ? err.violations.map((v) => v.path) : [String(err)];
    }
  };
  const paths = named.violations("docent/ChatMessage", { role: "user", content: 1 }).map((v) => v.path);
  // every field, as JSON has them (Python's `chatschema validate --format json` writes the same)
  const missing = named.violations("docent/ChatMessage", { role: "user" }).map((v) => JSON.parse(JSON.stringify(v)));
  return JSON.stringify({
    named: (Object.keys(named) as (keyof Named)[]).every((key) => named[key] === chatschema[key]),
    valid: named.isValid("docent/ChatMessage", { role: "user", content: "hi" }),
    invalid: named.isValid("docent/ChatMessage", { role: "bot", content: "hi" }),
    badDate: chatschema.isValid("letta/LettaPing", { ...ping, date: "yesterday" }),
    thrown: thrown({ role: "user" }),
    violations: [...new Set(paths)],
    missing,
    family: named.letta.isLettaPing(ping),
    entry: [entry.isToolCallMessage(ping), entry.isToolCallMessage(call)],
    stream: stream.reassembleSse(sse).stopReason?.stop_reason ?? null,
  });
}

export = report;
