/**
 * What the worker sends the main thread to draw: a row of a pane (its blocks'
 * previews, tool details, audit badges, token count) and the audit of a
 * recorded compaction (its marks on the timeline, its divider, its figures).
 * Shared by the worker, which builds them, and the main thread's layout and
 * components, which draw them; part of the worker's typed contract (protocol.ts).
 */
import type { CompactionAudit } from "../core/audit/moment.ts";
import type { PayloadKind, Role } from "../core/model.ts";

export type Pane = "original" | "active";

export interface RowBlockView {
  type: "text" | "thinking" | "toolCall" | "image" | "raw" | "omitted";
  /** The first lines of the block as plain text (never HTML). */
  preview: string;
  chars: number;
  /** Display lines of a text preview (1..3); fixed in CSS. */
  lines: number;
  name?: string;
  callId?: string;
  /** For a tool call: the row of its result in the same pane, -1 when none. */
  resultRow?: number;
  recoveryId?: string;
  sha256?: string;
  bytes?: number;
  kind?: PayloadKind;
  label?: string;
  /** Thinking the provider sent encrypted: the bytes of that opaque payload (its text is not readable). */
  opaqueBytes?: number;
  /** The preview stops before the end of the text (the row offers "… more"). */
  cut?: boolean;
}

export interface RowProjection {
  index: number;
  id: string;
  role: Role;
  line?: number;
  chars: number;
  blocks: RowBlockView[];
  hiddenBlocks: number;
  /** Model-view tokens of this message (o200k), once the worker's tokenizer is loaded. */
  tokens?: number;
  /** For a tool result: the call it answers and where that call is. */
  tool?: { callId?: string; name?: string; isError?: boolean; exitCode?: number; callRow: number };
  /** Active rows: the row of the source message in the original pane, -1 when none (e.g. a summary). */
  sourceRow: number;
  /** Active rows whose text differs from their source (capped prose, rewrites). */
  differs: boolean;
  /** Original rows not in the active context; `at`: the recorded compaction that dropped it, when one did. */
  dropped?: { at: number | null };
  /** Original rows right after recorded compactions: the dividers drawn above them. */
  dividers?: DividerInfo[];
  /** The row in the other pane for "show in the other pane": the same message, or the summary that replaced it; -1 when none. */
  otherRow?: number;
  otherIsSummary?: boolean;
  /** Active row: the summary of the audited compaction (shown whole). */
  isSummary?: boolean;
}

export interface DividerInfo {
  index: number;
  kind: string;
  trigger: "auto" | "manual" | null;
  /** The file's own figures; null when it states none. */
  tokensBefore: number | null;
  tokensAfter: number | null;
}

/** On the audit view of one recorded compaction: which one, and its figures. */
export interface AuditOnView extends DividerInfo {
  count: number;
  /** Active row of the summary that replaced what left, -1 when none. */
  summaryRow: number;
  dropped: number;
}

export interface TimelineMark extends DividerInfo {
  line: number;
  entryId: string;
  messagesBefore: number;
  messagesAfter: number;
  /** Model-view tokens either side (unit: the tokenizer's label). */
  size: { unit: string; before: number; after: number };
  dropped: number;
}

export interface TimelineData {
  firstLine: number;
  lastLine: number;
  unit: string;
  /** The file's own usage per turn (context tokens the model read). */
  usage: { turns: { line: number; tokens: number }[]; contextWindow: number | null; notes: string[] };
  /** Model-view sizes either side of each compaction, where the file records no usage. */
  estimate: { line: number; tokens: number }[];
  marks: TimelineMark[];
  /** Why the file shows no compaction whatever happened, where its format never records one (core/compactions/unrecorded.ts). */
  unrecorded: string | null;
}

export type CompactionAuditView = Omit<CompactionAudit, "checkride" | "copiedFrom" | "dropped"> & {
  dropped: Pick<CompactionAudit["dropped"], "facts" | "humanMessages" | "toolOutputs"> & { messages: number };
};
