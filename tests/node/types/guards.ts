// Type tests of the package's guards and assertions (tests/test_ts_package.py compiles this with
// `tsc --strict`). Each `// @ts-expect-error` fails the compile ("unused directive") if a guard
// stopped narrowing or narrowed too far.
import { isValid, parse, validate, type letta, type docent, type Violation } from "chatschema";
import {
  isLettaMessage,
  isToolCallMessage,
  isUnknownLettaMessage,
  isValid as isLetta,
  type LettaMessage,
  type ToolCallMessage,
  type UnknownLettaMessage,
} from "chatschema/letta";
import { isChatMessage } from "chatschema/docent";

/** A guard narrows an unknown value in its true branch and leaves it unknown in the false one. */
export function fromUnknown(raw: unknown): ToolCallMessage | null {
  if (isToolCallMessage(raw)) {
    const call: ToolCallMessage = raw;
    return call;
  }
  // @ts-expect-error: still unknown
  raw.message_type;
  return null;
}

/** On a union, the true branch is the member; the false branch keeps the whole union. */
export function fromUnion(message: LettaMessage): string {
  if (isToolCallMessage(message)) {
    const tag: "tool_call_message" = message.message_type;
    return tag;
  }
  // The false branch still holds tool call messages (one with a bad date fails the guard) ...
  const kept: LettaMessage["message_type"] = message.message_type;
  // ... so it is not narrowed to the other members.
  // @ts-expect-error: "tool_call_message" is still possible here
  const others: Exclude<LettaMessage["message_type"], "tool_call_message"> = message.message_type;
  return kept + others;
}

/** A value already typed as the schema's type keeps its type when the guard says false (not `never`). */
export function sameType(call: ToolCallMessage): string {
  if (!isToolCallMessage(call)) return call.id;
  return call.message_type;
}

/** isValid by name narrows like the guards, with the same false branch. */
export function byName(raw: unknown, chat: docent.ChatMessage): string {
  if (isValid("docent/ChatMessage", raw)) {
    const role: "system" | "user" | "assistant" | "tool" = raw.role;
    return role;
  }
  if (!isValid("docent/ChatMessage", chat)) return chat.role;
  if (isLetta("letta/ToolCallMessage", raw)) return raw.tool_call.name ?? "";
  // @ts-expect-error: the letta entry point knows only letta names
  isLetta("docent/ChatMessage", raw);
  return isChatMessage(raw) ? raw.role : "";
}

/** validate asserts; parse returns the type. */
export function asserted(raw: unknown, other: unknown): letta.ToolCallMessage {
  // @ts-expect-error: unknown before the assertion
  raw.message_type;
  validate("letta/LettaMessage", raw);
  const tag: LettaMessage["message_type"] = raw.message_type;
  void tag;
  // @ts-expect-error: parse's result is typed; a Docent message is not a Letta one
  const wrong: docent.ChatMessage = parse("letta/ToolCallMessage", other);
  void wrong;
  return parse("letta/ToolCallMessage", other);
}

// @ts-expect-error: not a schema name
isValid("docent/NoSuchType", {});

/** A violation says where as a JSONPath and as a JSON Pointer, with the schema's pointer and ajv's
 * params; its fields are read-only. */
export function located(violation: Violation): string {
  const { path, message, keyword, instancePath, schemaPath } = violation;
  const missing: unknown = violation.params["missingProperty"];
  // @ts-expect-error: read-only
  violation.instancePath = "/other";
  return [path, message, keyword, instancePath, schemaPath, String(missing)].join(" ");
}

/** `{ unknown: "keep" }` adds the union's unknown variant, a member of its own that a known tag never narrows to. */
export function keepUnknown(raw: unknown): string {
  if (!isLettaMessage(raw, { unknown: "keep" })) return "invalid";
  if (isUnknownLettaMessage(raw)) {
    const kept: UnknownLettaMessage = raw;
    const tag: string = kept.message_type; // the tag is a string: one this version does not know
    return tag;
  }
  switch (raw.message_type) {
    case "assistant_message":
      return raw.message_type;
    default: {
      // every known member but the one handled: the unknown variant was taken out above
      const rest: Exclude<LettaMessage["message_type"], "assistant_message"> = raw.message_type;
      return rest;
    }
  }
}

/** Without the option, no unknown variant; with it, by name too. */
export function unknownByName(raw: unknown): string {
  if (isLettaMessage(raw)) {
    // @ts-expect-error: no unknown variant without `{ unknown: "keep" }`
    const kept: UnknownLettaMessage = raw;
    return kept.message_type;
  }
  const message = parse("letta/LettaMessage", raw, { unknown: "keep" });
  const either: LettaMessage | UnknownLettaMessage = message;
  // @ts-expect-error: the result may be an unknown variant, not only a LettaMessage
  const known: LettaMessage = parse("letta/LettaMessage", raw, { unknown: "keep" });
  const strict: LettaMessage = parse("letta/LettaMessage", raw);
  // a type that is not a union has no unknown variant: the option changes nothing in its type
  const call: ToolCallMessage = parse("letta/ToolCallMessage", raw, { unknown: "keep" });
  return [either, known, strict, call].length.toString();
}
