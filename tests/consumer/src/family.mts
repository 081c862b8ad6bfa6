// A per-family entry point (`chatschema/letta`): its types, its per-type guards, its validators.
import { isToolCallMessage, isValid, parse, type LettaMessage, type ToolCallMessage } from "chatschema/letta";
import type { docent } from "chatschema";

/** A per-type guard narrows in its true branch and keeps the input's type in its false branch. */
export function callName(message: LettaMessage): string | null {
  if (isToolCallMessage(message)) {
    const tag: "tool_call_message" = message.message_type;
    return tag;
  }
  // @ts-expect-error: the tool call message was ruled out
  message.message_type satisfies "tool_call_message";
  return message.id;
}

/** On an `unknown`, the false branch stays `unknown`. */
export function maybeCall(raw: unknown): ToolCallMessage | undefined {
  if (isToolCallMessage(raw)) return raw;
  // @ts-expect-error: still unknown
  raw.id;
  return undefined;
}

export function letta(raw: unknown): LettaMessage | null {
  return isValid("letta/LettaMessage", raw) ? raw : null;
}

export const typed: ToolCallMessage = parse("letta/ToolCallMessage", {});

// @ts-expect-error: the letta entry point knows only letta names
isValid("docent/ChatMessage", {});
// @ts-expect-error: a Docent message is not a Letta one
export const wrong: ToolCallMessage = { role: "user", content: "hi" } satisfies docent.ChatMessage;
