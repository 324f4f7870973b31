/**
 * The neutral session model: every format reader maps into these types, and
 * every strategy, the checkride, the worker and the CLI read only these.
 * Kept in one place on purpose (see DESIGN.md "Neutral model").
 */

export type Role = "user" | "assistant" | "toolResult" | "bash" | "system" | "custom" | "summary";

/**
 * `extra` carries, verbatim, any source fields of a known block beyond the
 * neutral ones (a thinking signature, a cache-control marker, an unparsed
 * arguments string), so that an archived block is the block exactly as read.
 */
type Extra = { extra?: Record<string, unknown> };
export type TextBlock = { type: "text"; text: string } & Extra;
export type ThinkingBlock = { type: "thinking"; text: string } & Extra;
export type ToolCallBlock = { type: "toolCall"; id: string; name: string; arguments: unknown } & Extra;
export type ImageBlock = { type: "image"; mimeType: string; data: string } & Extra;
/** Anything a reader does not understand travels untouched. */
export type RawBlock = { type: "raw"; value: unknown };
/** Only in active views: marks a payload moved to the archive. */
export type OmittedBlock = {
  type: "omitted";
  recoveryId: string;
  sha256: string;
  bytes: number;
  kind: PayloadKind;
  label: string;
};

export type Block = TextBlock | ThinkingBlock | ToolCallBlock | ImageBlock | RawBlock | OmittedBlock;

export type PayloadKind = "thinking" | "toolResult" | "bashOutput" | "image" | "raw" | "prose" | "message" | "toolCall";

export interface Message {
  /** Stable and deterministic: the source id, or minted from line/position. */
  id: string;
  role: Role;
  /** Every field of the source message other than its content, verbatim. */
  meta: Record<string, unknown>;
  blocks: Block[];
  /** 1-based source line (JSONL) or 0-based array index (+1) where the message starts. */
  line?: number;
}

export type FormatName = "pi" | "claude" | "codex" | "openai" | "anthropic" | "gemini" | "cline" | "opencode" | "copilot" | "aider" | "qwen" | "cursor" | "kiro";

export interface LoadWarning {
  /** 1-based line number in the source file; 0 when the problem has no single line. */
  line: number;
  message: string;
}

/** A problem that stops a load (strict mode, or input that cannot be read at all). */
export class SessionError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(line > 0 ? `line ${line}: ${reason}` : reason);
    this.name = "SessionError";
  }
}

/**
 * A node of the session tree. Entries that the model never sees (labels, model
 * changes, Claude Code progress lines, …) are entries without a message.
 */
export interface Entry {
  id: string;
  parentId: string | null;
  line: number;
  /** The source record's type, e.g. "message", "compaction", "progress". */
  type: string;
  /** Messages this entry contributes to a branch (usually 0 or 1). */
  messages: Message[];
  /** True when the entry belongs to a side chain (Claude Code subagents). */
  sidechain?: boolean;
  /**
   * The record itself for entries without messages whose content facts need
   * (Codex exec/patch events, Pi labels and session names); omitted otherwise.
   */
  data?: unknown;
}

export interface Session {
  format: FormatName;
  formatVersion?: string;
  /** The header record (Pi session line, Codex session_meta, …), verbatim. */
  header?: unknown;
  entries: Entry[];
  byId: Map<string, Entry>;
  /** Every possible leaf, in file order. */
  leaves: string[];
  /** The leaf the agent itself would resume. */
  defaultLeafId: string | null;
  warnings: LoadWarning[];
  /** Distinct tool calls (by call id) in the whole file. */
  toolCallIds: Set<string>;
  /** Records that are not tree nodes (Claude Code snapshots, Codex state lines), by type. */
  offTreeRecords: Record<string, number>;
  /** The entries root → leaf (every entry type, messages or not). */
  path(leafId: string | null): Entry[];
  /** Ordered messages of the branch root → leaf. */
  branch(leafId: string | null): Message[];
  /** The entries whose messages make that branch, in order (the path, plus what a format adds beside it). */
  branchEntries(leafId: string | null): Entry[];
  /** The context the agent would send now, after the compactions recorded in the file. */
  recordedContext(leafId: string | null): RecordedContext;
  /** Every compaction the file records on the branch root → leaf, in order (the same array on each call: read it, do not change it). */
  recordedCompactions(leafId: string | null): RecordedCompaction[];
  /** The file's own usage records on the branch root → leaf. */
  usage(leafId: string | null): UsageSeries;
}

/**
 * The kinds of compaction the formats record. One neutral type for every
 * format: the "recorded" strategy, the audit, the timeline and the library
 * all read RecordedCompaction and nothing format-specific.
 */
export type CompactionKind =
  | "pi-compaction"
  | "pi-branch-summary"
  | "claude-compact"
  | "claude-microcompact"
  | "codex-compacted"
  | "codex-rollback"
  | "gemini-compression"
  | "qwen-compression"
  | "cline-truncation"
  | "roo-condense"
  | "roo-truncation"
  | "opencode-compaction"
  | "opencode-prune"
  | "copilot-compaction"
  | "copilot-truncation"
  | "kiro-compact";

/** One compaction the file itself records, with the context just before and just after it. */
export interface RecordedCompaction {
  /** 1-based, in file order along the branch. */
  index: number;
  /** 1-based source line (or array position + 1) of the record. */
  line: number;
  /** The id of the entry that records it. */
  entryId: string;
  timestamp?: string;
  kind: CompactionKind;
  trigger: "auto" | "manual" | null;
  /** The file's own token figures; null when the file states none (never estimated here). */
  tokensBefore: number | null;
  tokensAfter: number | null;
  /** The summary text the agent wrote, when there is one. */
  summary: string | null;
  /** Size in bytes of opaque (encrypted) compaction content, shown by size only. */
  opaqueBytes?: number;
  /** Codex's context window number after the compaction (`compacted.window_number`), when the file states it. */
  windowNumber?: number;
  /** What the agent was sending just before: the previous compaction's result plus everything after it. */
  before: Message[];
  /** What it sent right after: the summary and what was kept. */
  after: Message[];
  /** Ids of messages in `before` that no longer reach the model in `after`. */
  droppedMessageIds: string[];
}

/** One model turn's usage as the file records it (never estimated). */
export interface UsageTurn {
  /** 1-based source line of the record carrying the figures. */
  line: number;
  /** The message it belongs to, when there is one. */
  messageId?: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Everything the model read on that turn: input + cache read + cache write, or the format's own total. */
  contextTokens: number;
}

/** The file's own usage records, one series per branch. */
export interface UsageSeries {
  turns: UsageTurn[];
  /** The context window the file states (Codex model_context_window), or null. */
  contextWindow: number | null;
  /** Caveats about the figures (zeroed usage on resumed messages, streamed duplicates skipped). */
  notes: string[];
}

export interface RecordedContext {
  messages: Message[];
  /** Number of compactions found on the branch. */
  compactions: number;
  /** Ids of branch messages that no longer reach the model (summarised away). */
  droppedMessageIds: string[];
}

export function textOf(message: Message): string {
  let out = "";
  for (const block of message.blocks) {
    if (block.type === "text") out += (out ? "\n" : "") + block.text;
  }
  return out;
}

export function isProseRole(role: Role): boolean {
  return role === "user" || role === "assistant";
}
