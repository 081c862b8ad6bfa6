// The package used from a CommonJS module (compiled to out/cjs.cjs): the same checks as esm.mts.
import chatschema = require("chatschema");
import stream = require("chatschema/stream");

const { isValid, validate, violations, PayloadError } = chatschema;
const ping: chatschema.letta.LettaPing = { id: "message-1", date: "2025-10-01T12:30:45+00:00", message_type: "ping" };

function thrown(fn: () => unknown): string[] {
  try {
    fn();
    return [];
  } catch (err) {
    return err instanceof PayloadError ? err.violations.map((v) => v.path) : [String(err)];
  }
}

const sse = 'data: {"message_type": "stop_reason", "stop_reason": "end_turn"}\n\ndata: [DONE]\n\n';

console.log(
  JSON.stringify({
    valid: isValid("docent/ChatMessage", { role: "user", content: "hi" }),
    invalid: isValid("docent/ChatMessage", { role: "bot", content: "hi" }),
    namespace: chatschema.isValid("letta/LettaPing", ping),
    badDate: chatschema.isValid("letta/LettaPing", { ...ping, date: "yesterday" }),
    thrown: thrown(() => validate("docent/ChatMessage", { role: "user" })),
    violations: [...new Set(violations("docent/ChatMessage", { role: "user", content: 1 }).map((v) => v.path))],
    stream: stream.reassembleSse(sse).stopReason?.stop_reason ?? null,
  }),
);
