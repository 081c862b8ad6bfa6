// Type-level use of the package: narrowing on tags, the family namespaces, SchemaTypes. Guards,
// validate/parse and the SDK helpers are tested by tests/node/types/*.ts, compiled here too.
// Each `// @ts-expect-error` line fails to compile ("unused directive") if the types get looser.
import { violations, type SchemaTypes } from "chatschema";
import type * as chatschema from "chatschema";
import type { docent, letta } from "chatschema";

function assertNever(value: never): never {
  throw new Error(`unexpected ${JSON.stringify(value)}`);
}

/** Narrowing on Letta's `message_type`, exhaustively. */
export function lettaText(message: letta.LettaMessage): string {
  switch (message.message_type) {
    case "assistant_message":
      // @ts-expect-error: narrowed to the assistant message, whose content is no number
      message.content satisfies number;
      return typeof message.content === "string" ? message.content : "";
    case "reasoning_message":
      return message.reasoning;
    case "tool_call_message":
      return message.message_type;
    case "system_message":
    case "user_message":
    case "hidden_reasoning_message":
    case "tool_return_message":
    case "approval_request_message":
    case "approval_response_message":
    case "summary_message":
    case "event_message":
      return message.id;
    default:
      return assertNever(message);
  }
}

/** Narrowing on Docent's `role`, then on a content part's `type`. */
export function docentText(message: docent.ChatMessage): string {
  if (message.role === "tool") {
    const call: string | null | undefined = message.tool_call_id;
    return call ?? "";
  }
  // @ts-expect-error: the tool role was ruled out
  message.role satisfies "tool";
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => {
      switch (part.type) {
        case "text":
          return part.text;
        case "reasoning":
          return part.reasoning;
        default:
          return assertNever(part);
      }
    })
    .join("");
}

export const named: SchemaTypes["letta/ToolCallMessage"]["message_type"] = "tool_call_message";
export type Namespace = typeof chatschema.isValid;
export const found: { path: string; message: string }[] = violations("docent/ChatMessage", {});

// @ts-expect-error: a wrong tag
export const wrongTag: docent.ChatMessage = { role: "bot", content: "hi" };
// @ts-expect-error: a required key is missing
export const missing: letta.ToolCallMessage = { id: "message-1", date: "2025-01-01T00:00:00Z", message_type: "tool_call_message" };
