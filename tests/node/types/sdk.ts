// Values typed by the official Letta SDK (@letta-ai/letta-client 1.12.1, pinned in codegen/node)
// become ours through `fromSdk`, with no cast (tests/test_ts_package.py compiles this with tsc --strict).
import type * as Sdk from "@letta-ai/letta-client/resources/agents/messages";
import type { ToolReturnMessage as SdkToolReturnMessage } from "@letta-ai/letta-client/resources/tools";
import { fromSdk, type SchemaType } from "chatschema/letta";
import type { letta } from "chatschema";

export const converters = {
  ApprovalRequestMessage: (v: Sdk.ApprovalRequestMessage): letta.ApprovalRequestMessage => fromSdk("letta/ApprovalRequestMessage", v),
  ApprovalResponseMessage: (v: Sdk.ApprovalResponseMessage): letta.ApprovalResponseMessage => fromSdk("letta/ApprovalResponseMessage", v),
  ApprovalReturn: (v: Sdk.ApprovalReturn): letta.ApprovalReturn => fromSdk("letta/ApprovalReturn", v),
  AssistantMessage: (v: Sdk.AssistantMessage): letta.AssistantMessage => fromSdk("letta/AssistantMessage", v),
  EventMessage: (v: Sdk.EventMessage): letta.EventMessage => fromSdk("letta/EventMessage", v),
  HiddenReasoningMessage: (v: Sdk.HiddenReasoningMessage): letta.HiddenReasoningMessage => fromSdk("letta/HiddenReasoningMessage", v),
  ImageContent: (v: Sdk.ImageContent): letta.ImageContent => fromSdk("letta/ImageContent", v),
  LettaResponse: (v: Sdk.LettaResponse): letta.LettaResponse => fromSdk("letta/LettaResponse", v),
  LettaStreamingResponse: (v: Sdk.LettaStreamingResponse): letta.LettaStreamingResponse => fromSdk("letta/LettaStreamingResponse", v),
  LettaMessage: (v: Sdk.AssistantMessage | Sdk.ToolCallMessage | Sdk.SystemMessage | Sdk.UserMessage): letta.LettaMessage => fromSdk("letta/LettaMessage", v),
  ReasoningMessage: (v: Sdk.ReasoningMessage): letta.ReasoningMessage => fromSdk("letta/ReasoningMessage", v),
  SummaryMessage: (v: Sdk.SummaryMessage): letta.SummaryMessage => fromSdk("letta/SummaryMessage", v),
  SystemMessage: (v: Sdk.SystemMessage): letta.SystemMessage => fromSdk("letta/SystemMessage", v),
  TextContent: (v: Sdk.TextContent): letta.TextContent => fromSdk("letta/TextContent", v),
  ToolCall: (v: Sdk.ToolCall): letta.ToolCall => fromSdk("letta/ToolCall", v),
  ToolCallDelta: (v: Sdk.ToolCallDelta): letta.ToolCallDelta => fromSdk("letta/ToolCallDelta", v),
  ToolCallMessage: (v: Sdk.ToolCallMessage): letta.ToolCallMessage => fromSdk("letta/ToolCallMessage", v),
  ToolReturn: (v: Sdk.ToolReturn): letta.ToolReturn => fromSdk("letta/ToolReturn", v),
  ToolReturnMessage: (v: SdkToolReturnMessage): letta.ToolReturnMessage => fromSdk("letta/ToolReturnMessage", v),
  UserMessage: (v: Sdk.UserMessage): letta.UserMessage => fromSdk("letta/UserMessage", v),
};

/** Without fromSdk the SDK's values are not ours (the reason the helper exists). */
export function withoutHelper(v: Sdk.ToolCallMessage): letta.ToolCallMessage {
  // @ts-expect-error: the SDK's tag is optional
  return v;
}

/** A value with another tag does not compile. */
export function wrongTag(v: Sdk.AssistantMessage): SchemaType<"letta/ToolCallMessage"> {
  // @ts-expect-error: an assistant message is not a tool call message
  return fromSdk("letta/ToolCallMessage", v);
}
