/**
 * The typed contract between the main thread and the session worker. The
 * worker owns the session and every checkpoint; the main thread receives
 * small projections and asks for full content when a row is opened.
 */
import type { CheckpointStats } from "../../core/checkpoint.ts";
import type { CompositionPart } from "../../core/composition.ts";
import type { RoundsResult } from "../../core/evaluate/rounds.ts";
import type { CheckrideResult } from "../../core/checkride/run.ts";
import type { KeyEdits } from "../../core/checkride/key-edits.ts";
import type { EndpointSettings } from "../../core/endpoint.ts";
import type { LoadWarning, Role } from "../../core/model.ts";

// The shapes of rows and of the audit on the main thread live in ../projections.ts (the panes' layout reads
// them too, without reaching into the worker); they are part of this contract.
export * from "../projections.ts";
import type { AuditOnView, CompactionAuditView, Pane, RowBlockView, RowProjection, TimelineData } from "../projections.ts";

export interface LeafOption {
  id: string;
  label: string;
  messages: number;
  isDefault: boolean;
}

export interface SessionSummary {
  name: string;
  bytes: number;
  /** Of the file's bytes; "" in a load's preview, which goes out before the hash is computed. */
  sha256: string;
  format: string;
  formatVersion: string | null;
  leaves: LeafOption[];
  defaultLeafId: string | null;
  warnings: LoadWarning[];
  toolCalls: number;
  recordedCompactions: number;
  /**
   * Wall-clock milliseconds in the worker: reading the file and decoding it (JSON Lines into records,
   * slice by slice), then building the session from the records (the format's reader and the tree).
   */
  timings: { readMs: number; parseMs: number };
  /** A database holding several sessions (OpenCode's opencode.db): which one is open, and the others to choose from. */
  database?: { chosen: string; sessions: DatabaseSessionOption[] };
}

export interface DatabaseSessionOption {
  id: string;
  title: string;
  messages: number;
  /** Milliseconds since the epoch, as the database records them. */
  updated: number | null;
  /** A subagent's session (it names the session that started it). */
  subagent: boolean;
}

export interface StrategyOption {
  name: string;
  label: string;
  description: string;
}

/** Role codes for the per-row filter arrays. */
export const ROLE_CODES: readonly Role[] = ["user", "assistant", "toolResult", "bash", "system", "custom", "summary"];
export const FLAG_HAS_OMISSION = 1;
export const FLAG_DIFFERS = 2;

export interface PaneGeometry {
  count: number;
  heights: Uint16Array;
  /** ROLE_CODES index per row. */
  roles: Uint8Array;
  flags: Uint8Array;
  /** Row in the other pane holding the same source message, -1 when none. */
  aligned: Int32Array;
}

export interface ViewSummary {
  /**
   * The engine's number for this view: every request about a view names it, so an answer is
   * always about the view the screen shows (after a cancelled load, the one before it).
   */
  id: number;
  /** True while only the original pane is known (the compaction still runs). */
  pending?: boolean;
  strategy: string;
  options: Record<string, unknown>;
  leafId: string | null;
  stats: CheckpointStats;
  /** Model-view tokens of the two panes and what the active one is made of (budgeted: parts may be estimated, and say so). */
  tokens: ViewTokenFigures;
  round: number;
  hasPrevious: boolean;
  /** Set when this view is the audit of one recorded compaction (original = before, active = after). */
  audit?: AuditOnView;
  /** Wall-clock milliseconds the worker spent on this compaction and its two pane models. */
  compactMs: number;
  original: PaneGeometry;
  active: PaneGeometry;
}

/** Tokens of the model's view (core/tokens.ts), and the file's own usage beside them. */
export interface ViewTokenFigures {
  /** How the counts were made (TOKENIZER_LABEL). */
  tokenizer: string;
  /** False while some messages are estimated (chars ÷ 4) because the load's counting budget ran out. */
  exact: boolean;
  original: number;
  active: number;
  /** Of each figure, the part estimated as chars ÷ 4. */
  estimated: { original: number; active: number };
  composition: CompositionPart[];
  /** The file's usage records against the model's view; null until the exact count is made. */
  usage: {
    turns: number;
    /** The last recorded turn: what the file says the model read, and the model-view count of that same context. */
    last: { line: number; recorded: number; input: number; cacheRead: number; cacheWrite: number; modelView: number } | null;
    notInTranscriptAtFirstTurn: number | null;
    contextWindow: number | null;
    notes: string[];
  } | null;
}

/** Strategies that leave exactly the same active context as the view's, and why (services/equivalents.ts). */
export interface Equivalents {
  strategy: string;
  same: { strategy: string; label: string; reason: string }[];
  compared: boolean;
  /** Why no comparison was made, when it was not. */
  why: string | null;
}

export interface DisplayBlock {
  type: RowBlockView["type"];
  /** Full text for text/thinking; JSON for tool calls and raw values; gated by size. */
  text: string;
  truncated: boolean;
  totalChars: number;
  mimeType?: string;
  /** data: URL for images (rendered as an <img>, never as HTML). */
  imageUrl?: string;
  recoveryId?: string;
  sha256?: string;
  bytes?: number;
  label?: string;
  name?: string;
}

export interface MessageDetail {
  pane: Pane;
  index: number;
  id: string;
  role: Role;
  meta: string;
  blocks: DisplayBlock[];
}

export interface RecoveryResult {
  recoveryId: string;
  verified: boolean;
  expected: string;
  found: string;
  bytes: number;
  kind: string;
  blocks: DisplayBlock[];
  error?: string;
}

export interface DiffPart {
  value: string;
  added?: boolean;
  removed?: boolean;
}

export interface DiffResult {
  index: number;
  parts: DiffPart[];
  gated: boolean;
  sourceChars: number;
  activeChars: number;
}

export interface CheckrideParams {
  strategies: string[];
  reader: "literal" | "endpoint" | "local";
  endpoint?: EndpointSettings;
  /** The GGUF file the local reader runs (in this worker, through llama.cpp in WebAssembly). */
  localModel?: File;
  /** A memory.md the user chose; read in the worker. */
  memory?: File | string;
  /** See CompactParams.summaryEndpoint. */
  summaryEndpoint?: CompactParams["summaryEndpoint"];
  /** The user's edits of the answer key: graded here, in the worker. */
  edits?: KeyEdits;
}

export interface RoundsParams {
  strategies: string[];
  rounds: number;
  plant?: { text: string; at: number; distractor?: string };
}

/** `files`: one session that is several files (a Cline task folder; a Claude Code session with its subagents), each named by its path in the dropped folder. */
export type LoadSource =
  /** `handle`: the file as the File System Access API gives it (a picker, a drop in Chromium): what Follow reads again. */
  | { kind: "file"; file: File; handle?: FileSystemFileHandle }
  | { kind: "files"; name: string; files: { name: string; file: File }[] }
  | { kind: "url"; url: string; name: string }
  | { kind: "bytes"; bytes: ArrayBuffer; name: string };

export interface CompactParams {
  strategy: string;
  options: Record<string, unknown>;
  leafId: string | null;
  /** Recompact the current checkpoint plus whatever the branch has beyond it. */
  fromPrevious?: boolean;
  /** A model that writes the summary slots of pi-default and handoff (reached through the page). */
  summaryEndpoint?: EndpointSettings;
}

/** Names the view a request is about (ViewSummary.id; a load's preview has its own). */
interface AboutView {
  view: number;
}

export type Request =
  | { type: "strategies" }
  /** `databaseSession`: which session of a database (OpenCode's opencode.db) to open; the latest by default. */
  | { type: "load"; source: LoadSource; params: Omit<CompactParams, "fromPrevious">; databaseSession?: string }
  | { type: "cancel"; target: number }
  | ({ type: "compact"; params: CompactParams } & AboutView)
  | ({ type: "rows"; pane: Pane; start: number; end: number } & AboutView)
  | ({ type: "tokens" } & AboutView)
  | ({ type: "equivalents" } & AboutView)
  | ({ type: "detail"; pane: Pane; index: number; full: boolean } & AboutView)
  | ({ type: "recover"; recoveryId: string; full: boolean } & AboutView)
  | ({ type: "search"; query: string } & AboutView)
  | ({ type: "diff"; index: number; full: boolean } & AboutView)
  | ({ type: "export" } & AboutView)
  | ({ type: "locate"; messageId: string } & AboutView)
  | ({ type: "checkride"; params: CheckrideParams } & AboutView)
  | ({ type: "rounds"; params: RoundsParams } & AboutView)
  | ({ type: "scan" } & AboutView)
  | ({ type: "report"; params: ReportParams } & AboutView)
  | ({ type: "exportRedacted"; masked: string[] } & AboutView)
  | ({ type: "timeline" } & AboutView)
  | ({ type: "compactionAudit"; index: number } & AboutView)
  | ({ type: "auditView"; index: number } & AboutView)
  | ({ type: "follow"; params: FollowParams } & AboutView);

export type RequestOf<T extends Request["type"]> = Extract<Request, { type: T }>;

export interface ReportParams {
  strategies: string[];
  format: "html" | "md";
  masked: string[];
  memory?: File | string;
  /** The user's edits of the answer key. */
  edits?: KeyEdits;
}

export interface ResponseMap {
  strategies: StrategyOption[];
  load: { session: SessionSummary; view: ViewSummary };
  cancel: { cancelled: boolean };
  compact: ViewSummary;
  rows: RowProjection[];
  tokens: ViewTokenFigures;
  equivalents: Equivalents;
  detail: MessageDetail;
  recover: RecoveryResult;
  search: { original: number[]; active: number[]; total: number; capped: boolean };
  diff: DiffResult;
  export: { blob: Blob; name: string };
  locate: { original: number; active: number };
  checkride: CheckrideResult[];
  rounds: { results: RoundsResult[]; distractor: string | null };
  scan: FindingView[];
  report: { blob: Blob; name: string };
  exportRedacted: { blob: Blob; name: string };
  timeline: TimelineData;
  compactionAudit: CompactionAuditView | null;
  auditView: ViewSummary;
  follow: FollowResult;
}

/** What the screen shows, made again of the grown session: the same strategy, branch and cap, or the audit of the same compaction. */
export interface FollowParams {
  strategy: string;
  options: Record<string, unknown>;
  /** The branch on screen; a branch that was the newest stays the newest as the file grows. */
  leafId: string | null;
  /** The recorded compaction audited on screen, if one is. */
  auditIndex: number | null;
}

/** A compaction the file recorded since the last look, with the file's own figures. */
export interface FollowedCompaction {
  index: number;
  line: number;
  kind: string;
  trigger: "auto" | "manual" | null;
  tokensBefore: number | null;
  tokensAfter: number | null;
  dropped: number;
}

/** One look at a followed file. */
export type FollowResult =
  | { change: "unchanged"; bytes: number }
  | {
      /** `rewritten`: the file shrank or its bytes already read changed, so it was read again from the start (`why`). */
      change: "grew" | "rewritten";
      why: string | null;
      bytes: number;
      addedBytes: number;
      /** Wall-clock milliseconds in the worker: reading what was added, then the session and the view made again. */
      readMs: number;
      rebuildMs: number;
      session: SessionSummary;
      view: ViewSummary;
      newCompactions: FollowedCompaction[];
    };

/** A possible secret as the page sees it: never the value itself. */
export interface FindingView {
  id: string;
  kind: string;
  preview: string;
  occurrences: number;
  messageIds: string[];
}

/**
 * The endpoint reader's HTTP request, made by the main thread on the worker's
 * behalf so that the page's Content-Security-Policy governs it.
 */
export interface ProxiedFetch {
  url: string;
  init: { method?: string; headers?: Record<string, string>; body?: string };
  timeoutMs: number;
}
export type ProxiedFetchReply = { ok: boolean; status: number; body: string } | { error: string; aborted?: boolean };

/** Rows travel from the worker a page at a time. */
export const ROW_PAGE_SIZE = 100;

export interface LoadPreview {
  /** The id the finished view will have; rows of the preview are asked for under it. */
  viewId: number;
  session: SessionSummary;
  original: PaneGeometry;
  /**
   * The original pane's first page of rows: the first rows need no round trip, which would wait
   * behind the file's hash and the compaction the worker starts right after sending this.
   */
  firstRows: RowProjection[];
  strategy: string;
  leafId: string | null;
}

/**
 * Load progress. The "compacting" stage carries a preview: the session is
 * read, so the original pane can be shown (and its rows fetched) while the
 * compaction runs.
 */
export type Progress = {
  stage: "reading" | "parsing" | "compacting" | "checkride";
  loaded: number;
  total: number;
  preview?: LoadPreview;
  /** What a checkride is doing now. */ label?: string;
};

export type WorkerInbound = { id: number; request: Request } | { fetchId: number; reply: ProxiedFetchReply };
export type WorkerOutbound =
  | { fetchId: number; fetch: ProxiedFetch }
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { message: string; line?: number; cancelled?: boolean } }
  | { id: number; progress: Progress };
