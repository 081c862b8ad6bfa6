// Our Letta Code types against Letta Code's own, both ways (tests/test_letta_code_types.py compiles
// this with tsc --strict against the published declarations of @letta-ai/letta-code 0.32.18 and
// @letta-ai/letta-code-sdk 0.1.14, which tests/letta_code_types.py pins).
import type * as LC from "@letta-ai/letta-code/protocol";
import type * as Sdk from "@letta-ai/letta-code-sdk";
import type { letta } from "chatschema";

/** Their declarations resolved: an unresolved import would make every check below pass as `any`. */
// @ts-expect-error: a WireMessage is no number
export const resolved: number = null as unknown as LC.WireMessage;

/** Our type as a value typed by Letta Code must satisfy it: every field it declares, with our index
 * signature dropped (their interfaces have none) and the tags optional, as letta-client types them. */
type Tag = "message_type" | "type";
type Theirs<T> = T extends readonly (infer E)[]
  ? Theirs<E>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K extends Tag ? never : K]: Theirs<T[K]> } & {
        [K in keyof T as K extends Tag ? K : never]?: T[K];
      }
    : T;

// The known differences, all letta-client's: the Letta server streams compaction frames
// (summary_message, event_message) that letta-client's LettaStreamingResponse lacks, and writes null
// for an error frame's `detail` and `seq_id`, which letta-client types as a string and a number.
type Compaction = { message_type: "summary_message" | "event_message" };
type AsClient<T> = T extends { message_type: "error_message" } ? T & { detail?: string; seq_id?: number } : T;

/** Every value of our type is one of theirs. */
export const oursAreTheirs = {
  MessageEnvelope: (v: letta.MessageEnvelope): LC.MessageEnvelope => v,
  SystemInitMessage: (v: letta.SystemInitMessage): LC.SystemInitMessage => v,
  // @ts-expect-error: Letta's compaction frames and null error fields (see below)
  MessageWire: (v: letta.MessageWire): LC.MessageWire => v,
  // @ts-expect-error: Letta's compaction frames and null error fields, as `event`
  StreamEvent: (v: letta.StreamEvent): LC.StreamEvent => v,
  ApprovalRequestedMessage: (v: letta.ApprovalRequestedMessage): LC.ApprovalRequestedMessage => v,
  ApprovalReceivedMessage: (v: letta.ApprovalReceivedMessage): LC.ApprovalReceivedMessage => v,
  ToolExecutionStartedMessage: (v: letta.ToolExecutionStartedMessage): LC.ToolExecutionStartedMessage => v,
  ToolExecutionFinishedMessage: (v: letta.ToolExecutionFinishedMessage): LC.ToolExecutionFinishedMessage => v,
  AutoApprovalMessage: (v: letta.AutoApprovalMessage): LC.AutoApprovalMessage => v,
  CancelAckMessage: (v: letta.CancelAckMessage): LC.CancelAckMessage => v,
  // @ts-expect-error: Letta's null error fields, in `api_error`
  ErrorMessage: (v: letta.ErrorMessage): LC.ErrorMessage => v,
  RetryMessage: (v: letta.RetryMessage): LC.RetryMessage => v,
  RecoveryMessage: (v: letta.RecoveryMessage): LC.RecoveryMessage => v,
  ResultMessage: (v: letta.ResultMessage): LC.ResultMessage => v,
  ControlRequest: (v: letta.ControlRequest): LC.ControlRequest => v,
  ControlRequestBody: (v: letta.ControlRequestBody): LC.ControlRequestBody => v,
  BootstrapSessionStateRequest: (v: letta.BootstrapSessionStateRequest): LC.BootstrapSessionStateRequest => v,
  ListMessagesControlRequest: (v: letta.ListMessagesControlRequest): LC.ListMessagesControlRequest => v,
  RecoverPendingApprovalsControlRequest: (v: letta.RecoverPendingApprovalsControlRequest): LC.RecoverPendingApprovalsControlRequest => v,
  RegisterExternalToolsRequest: (v: letta.RegisterExternalToolsRequest): LC.RegisterExternalToolsRequest => v,
  ExternalToolDefinition: (v: letta.ExternalToolDefinition): LC.ExternalToolDefinition => v,
  DiffHunkLine: (v: letta.DiffHunkLine): LC.DiffHunkLine => v,
  DiffHunk: (v: letta.DiffHunk): LC.DiffHunk => v,
  DiffPreview: (v: letta.DiffPreview): LC.DiffPreview => v,
  CanUseToolControlRequest: (v: letta.CanUseToolControlRequest): LC.CanUseToolControlRequest => v,
  ExecuteExternalToolRequest: (v: letta.ExecuteExternalToolRequest): LC.ExecuteExternalToolRequest => v,
  // @ts-expect-error: the SDK writes its answers without `session_id` and `uuid`, which Letta Code types as required
  ControlResponse: (v: letta.ControlResponse): LC.ControlResponse => v,
  ControlResponseBody: (v: letta.ControlResponseBody): LC.ControlResponseBody => v,
  CanUseToolResponse: (v: letta.CanUseToolResponse): LC.CanUseToolResponse => v,
  CanUseToolResponseAllow: (v: letta.CanUseToolResponseAllow): LC.CanUseToolResponseAllow => v,
  CanUseToolResponseDeny: (v: letta.CanUseToolResponseDeny): LC.CanUseToolResponseDeny => v,
  RecoverPendingApprovalsResponsePayload: (v: letta.RecoverPendingApprovalsResponsePayload): LC.RecoverPendingApprovalsResponsePayload => v,
  ExternalToolResultContent: (v: letta.ExternalToolResultContent): LC.ExternalToolResultContent => v,
  ExternalToolResultResponse: (v: letta.ExternalToolResultResponse): LC.ExternalToolResultResponse => v,
  QueueItemSource: (v: letta.QueueItemSource): LC.QueueItemSource => v,
  QueueItemKind: (v: letta.QueueItemKind): LC.QueueItemKind => v,
  QueueSnapshotItem: (v: letta.QueueSnapshotItem): LC.QueueSnapshotItem => v,
  QueueItemEnqueuedEvent: (v: letta.QueueItemEnqueuedEvent): LC.QueueItemEnqueuedEvent => v,
  QueueBatchDequeuedEvent: (v: letta.QueueBatchDequeuedEvent): LC.QueueBatchDequeuedEvent => v,
  QueueBlockedEvent: (v: letta.QueueBlockedEvent): LC.QueueBlockedEvent => v,
  QueueClearedEvent: (v: letta.QueueClearedEvent): LC.QueueClearedEvent => v,
  QueueItemDroppedEvent: (v: letta.QueueItemDroppedEvent): LC.QueueItemDroppedEvent => v,
  TranscriptBackfillMessage: (v: letta.TranscriptBackfillMessage): LC.TranscriptBackfillMessage => v,
  QueueSnapshotMessage: (v: letta.QueueSnapshotMessage): LC.QueueSnapshotMessage => v,
  SyncCompleteMessage: (v: letta.SyncCompleteMessage): LC.SyncCompleteMessage => v,
  TranscriptSupplementMessage: (v: letta.TranscriptSupplementMessage): LC.TranscriptSupplementMessage => v,
  // @ts-expect-error: Letta's compaction frames and null error fields, in a MessageWire
  WireMessage: (v: letta.WireMessage): LC.WireMessage => v,
  McpServerStatus: (v: letta.McpServerStatus): LC.SystemInitMessage["mcp_servers"][number] => v,
  InitializeControlRequest: (v: letta.InitializeControlRequest): Extract<LC.ControlRequestBody, { subtype: "initialize" }> => v,
  InterruptControlRequest: (v: letta.InterruptControlRequest): Extract<LC.ControlRequestBody, { subtype: "interrupt" }> => v,
  AdvancedDiffPreview: (v: letta.AdvancedDiffPreview): Extract<LC.DiffPreview, { mode: "advanced" }> => v,
  FallbackDiffPreview: (v: letta.FallbackDiffPreview): Extract<LC.DiffPreview, { mode: "fallback" }> => v,
  UnpreviewableDiffPreview: (v: letta.UnpreviewableDiffPreview): Extract<LC.DiffPreview, { mode: "unpreviewable" }> => v,
  ControlSuccessResponse: (v: letta.ControlSuccessResponse): Extract<LC.ControlResponseBody, { subtype: "success" }> => v,
  ControlErrorResponse: (v: letta.ControlErrorResponse): Extract<LC.ControlResponseBody, { subtype: "error" }> => v,
  QueueItemContent: (v: letta.QueueItemContent): LC.QueueRuntimeItemWire["content"] => v,
  SDKMessage: (v: letta.SDKMessage): Sdk.SDKMessage => v,
  SDKInitMessage: (v: letta.SDKInitMessage): Sdk.SDKInitMessage => v,
  SDKAssistantMessage: (v: letta.SDKAssistantMessage): Sdk.SDKAssistantMessage => v,
  SDKToolCallMessage: (v: letta.SDKToolCallMessage): Sdk.SDKToolCallMessage => v,
  SDKToolResultMessage: (v: letta.SDKToolResultMessage): Sdk.SDKToolResultMessage => v,
  SDKReasoningMessage: (v: letta.SDKReasoningMessage): Sdk.SDKReasoningMessage => v,
  SDKResultMessage: (v: letta.SDKResultMessage): Sdk.SDKResultMessage => v,
  SDKStreamEventMessage: (v: letta.SDKStreamEventMessage): Sdk.SDKStreamEventMessage => v,
  SDKStreamEventPayload: (v: letta.SDKStreamEventPayload): Sdk.SDKStreamEventPayload => v,
  SDKErrorMessage: (v: letta.SDKErrorMessage): Sdk.SDKErrorMessage => v,
  SDKRetryMessage: (v: letta.SDKRetryMessage): Sdk.SDKRetryMessage => v,
  SDKErrorCode: (v: letta.SDKErrorCode): Sdk.SDKErrorCode => v,
  SkillSource: (v: letta.SkillSource): Sdk.SkillSource => v,
  EffectiveSleeptimeSettings: (v: letta.EffectiveSleeptimeSettings): NonNullable<Sdk.SDKInitMessage["sleeptime"]> => v,
};

/** The known differences above, and nothing else: each type without its difference is theirs. */
export const oursBesideTheDifferences = {
  MessageWire: (v: AsClient<Exclude<letta.MessageWire, Compaction>>): LC.MessageWire => v,
  StreamEvent: (v: letta.StreamEvent & { event: AsClient<Exclude<letta.LettaStreamingResponse, Compaction>> }): LC.StreamEvent => v,
  // its other branches are those four, checked here one by one
  WireMessage: (
    v: Exclude<letta.WireMessage, letta.MessageWire | letta.StreamEvent | letta.ErrorMessage | letta.ControlResponse>,
  ): LC.WireMessage => v,
  ErrorMessage: (v: letta.ErrorMessage & { api_error?: AsClient<letta.LettaErrorMessage> }): LC.ErrorMessage => v,
  ControlResponse: (v: letta.ControlResponse & { session_id: string; uuid: string }): LC.ControlResponse => v,
};

/** Every value of their type is one of ours (what the schema says beyond types, such as formats, aside). */
export const theirsAreOurs = {
  MessageEnvelope: (v: LC.MessageEnvelope): Theirs<letta.MessageEnvelope> => v,
  SystemInitMessage: (v: LC.SystemInitMessage): Theirs<letta.SystemInitMessage> => v,
  MessageWire: (v: LC.MessageWire): Theirs<letta.MessageWire> => v,
  StreamEvent: (v: LC.StreamEvent): Theirs<letta.StreamEvent> => v,
  ApprovalRequestedMessage: (v: LC.ApprovalRequestedMessage): Theirs<letta.ApprovalRequestedMessage> => v,
  ApprovalReceivedMessage: (v: LC.ApprovalReceivedMessage): Theirs<letta.ApprovalReceivedMessage> => v,
  ToolExecutionStartedMessage: (v: LC.ToolExecutionStartedMessage): Theirs<letta.ToolExecutionStartedMessage> => v,
  ToolExecutionFinishedMessage: (v: LC.ToolExecutionFinishedMessage): Theirs<letta.ToolExecutionFinishedMessage> => v,
  AutoApprovalMessage: (v: LC.AutoApprovalMessage): Theirs<letta.AutoApprovalMessage> => v,
  CancelAckMessage: (v: LC.CancelAckMessage): Theirs<letta.CancelAckMessage> => v,
  ErrorMessage: (v: LC.ErrorMessage): Theirs<letta.ErrorMessage> => v,
  RetryMessage: (v: LC.RetryMessage): Theirs<letta.RetryMessage> => v,
  RecoveryMessage: (v: LC.RecoveryMessage): Theirs<letta.RecoveryMessage> => v,
  ResultMessage: (v: LC.ResultMessage): Theirs<letta.ResultMessage> => v,
  ControlRequest: (v: LC.ControlRequest): Theirs<letta.ControlRequest> => v,
  ControlRequestBody: (v: LC.ControlRequestBody): Theirs<letta.ControlRequestBody> => v,
  BootstrapSessionStateRequest: (v: LC.BootstrapSessionStateRequest): Theirs<letta.BootstrapSessionStateRequest> => v,
  ListMessagesControlRequest: (v: LC.ListMessagesControlRequest): Theirs<letta.ListMessagesControlRequest> => v,
  RecoverPendingApprovalsControlRequest: (v: LC.RecoverPendingApprovalsControlRequest): Theirs<letta.RecoverPendingApprovalsControlRequest> => v,
  RegisterExternalToolsRequest: (v: LC.RegisterExternalToolsRequest): Theirs<letta.RegisterExternalToolsRequest> => v,
  ExternalToolDefinition: (v: LC.ExternalToolDefinition): Theirs<letta.ExternalToolDefinition> => v,
  DiffHunkLine: (v: LC.DiffHunkLine): Theirs<letta.DiffHunkLine> => v,
  DiffHunk: (v: LC.DiffHunk): Theirs<letta.DiffHunk> => v,
  DiffPreview: (v: LC.DiffPreview): Theirs<letta.DiffPreview> => v,
  CanUseToolControlRequest: (v: LC.CanUseToolControlRequest): Theirs<letta.CanUseToolControlRequest> => v,
  ExecuteExternalToolRequest: (v: LC.ExecuteExternalToolRequest): Theirs<letta.ExecuteExternalToolRequest> => v,
  ControlResponse: (v: LC.ControlResponse): Theirs<letta.ControlResponse> => v,
  ControlResponseBody: (v: LC.ControlResponseBody): Theirs<letta.ControlResponseBody> => v,
  CanUseToolResponse: (v: LC.CanUseToolResponse): Theirs<letta.CanUseToolResponse> => v,
  CanUseToolResponseAllow: (v: LC.CanUseToolResponseAllow): Theirs<letta.CanUseToolResponseAllow> => v,
  CanUseToolResponseDeny: (v: LC.CanUseToolResponseDeny): Theirs<letta.CanUseToolResponseDeny> => v,
  RecoverPendingApprovalsResponsePayload: (v: LC.RecoverPendingApprovalsResponsePayload): Theirs<letta.RecoverPendingApprovalsResponsePayload> => v,
  ExternalToolResultContent: (v: LC.ExternalToolResultContent): Theirs<letta.ExternalToolResultContent> => v,
  ExternalToolResultResponse: (v: LC.ExternalToolResultResponse): Theirs<letta.ExternalToolResultResponse> => v,
  QueueItemSource: (v: LC.QueueItemSource): Theirs<letta.QueueItemSource> => v,
  QueueItemKind: (v: LC.QueueItemKind): Theirs<letta.QueueItemKind> => v,
  QueueSnapshotItem: (v: LC.QueueSnapshotItem): Theirs<letta.QueueSnapshotItem> => v,
  QueueItemEnqueuedEvent: (v: LC.QueueItemEnqueuedEvent): Theirs<letta.QueueItemEnqueuedEvent> => v,
  QueueBatchDequeuedEvent: (v: LC.QueueBatchDequeuedEvent): Theirs<letta.QueueBatchDequeuedEvent> => v,
  QueueBlockedEvent: (v: LC.QueueBlockedEvent): Theirs<letta.QueueBlockedEvent> => v,
  QueueClearedEvent: (v: LC.QueueClearedEvent): Theirs<letta.QueueClearedEvent> => v,
  QueueItemDroppedEvent: (v: LC.QueueItemDroppedEvent): Theirs<letta.QueueItemDroppedEvent> => v,
  TranscriptBackfillMessage: (v: LC.TranscriptBackfillMessage): Theirs<letta.TranscriptBackfillMessage> => v,
  QueueSnapshotMessage: (v: LC.QueueSnapshotMessage): Theirs<letta.QueueSnapshotMessage> => v,
  SyncCompleteMessage: (v: LC.SyncCompleteMessage): Theirs<letta.SyncCompleteMessage> => v,
  TranscriptSupplementMessage: (v: LC.TranscriptSupplementMessage): Theirs<letta.TranscriptSupplementMessage> => v,
  WireMessage: (v: LC.WireMessage): Theirs<letta.WireMessage> => v,
  McpServerStatus: (v: LC.SystemInitMessage["mcp_servers"][number]): Theirs<letta.McpServerStatus> => v,
  InitializeControlRequest: (v: Extract<LC.ControlRequestBody, { subtype: "initialize" }>): Theirs<letta.InitializeControlRequest> => v,
  InterruptControlRequest: (v: Extract<LC.ControlRequestBody, { subtype: "interrupt" }>): Theirs<letta.InterruptControlRequest> => v,
  AdvancedDiffPreview: (v: Extract<LC.DiffPreview, { mode: "advanced" }>): Theirs<letta.AdvancedDiffPreview> => v,
  FallbackDiffPreview: (v: Extract<LC.DiffPreview, { mode: "fallback" }>): Theirs<letta.FallbackDiffPreview> => v,
  UnpreviewableDiffPreview: (v: Extract<LC.DiffPreview, { mode: "unpreviewable" }>): Theirs<letta.UnpreviewableDiffPreview> => v,
  ControlSuccessResponse: (v: Extract<LC.ControlResponseBody, { subtype: "success" }>): Theirs<letta.ControlSuccessResponse> => v,
  ControlErrorResponse: (v: Extract<LC.ControlResponseBody, { subtype: "error" }>): Theirs<letta.ControlErrorResponse> => v,
  QueueItemContent: (v: LC.QueueRuntimeItemWire["content"]): Theirs<letta.QueueItemContent> => v,
  SDKMessage: (v: Sdk.SDKMessage): Theirs<letta.SDKMessage> => v,
  SDKInitMessage: (v: Sdk.SDKInitMessage): Theirs<letta.SDKInitMessage> => v,
  SDKAssistantMessage: (v: Sdk.SDKAssistantMessage): Theirs<letta.SDKAssistantMessage> => v,
  SDKToolCallMessage: (v: Sdk.SDKToolCallMessage): Theirs<letta.SDKToolCallMessage> => v,
  SDKToolResultMessage: (v: Sdk.SDKToolResultMessage): Theirs<letta.SDKToolResultMessage> => v,
  SDKReasoningMessage: (v: Sdk.SDKReasoningMessage): Theirs<letta.SDKReasoningMessage> => v,
  SDKResultMessage: (v: Sdk.SDKResultMessage): Theirs<letta.SDKResultMessage> => v,
  SDKStreamEventMessage: (v: Sdk.SDKStreamEventMessage): Theirs<letta.SDKStreamEventMessage> => v,
  SDKStreamEventPayload: (v: Sdk.SDKStreamEventPayload): Theirs<letta.SDKStreamEventPayload> => v,
  SDKErrorMessage: (v: Sdk.SDKErrorMessage): Theirs<letta.SDKErrorMessage> => v,
  SDKRetryMessage: (v: Sdk.SDKRetryMessage): Theirs<letta.SDKRetryMessage> => v,
  SDKErrorCode: (v: Sdk.SDKErrorCode): Theirs<letta.SDKErrorCode> => v,
  SkillSource: (v: Sdk.SkillSource): Theirs<letta.SkillSource> => v,
  EffectiveSleeptimeSettings: (v: NonNullable<Sdk.SDKInitMessage["sleeptime"]>): Theirs<letta.EffectiveSleeptimeSettings> => v,
};
