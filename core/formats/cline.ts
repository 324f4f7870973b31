/**
 * Cline, Roo Code and Kilo Code task folders (`…/tasks/<taskId>/`):
 * `api_conversation_history.json` (an Anthropic Messages array: what the
 * model is sent), with `ui_messages.json` (the UI log) and
 * `task_metadata.json` when given. Messages get `m<index>` ids like any
 * message array (index into the history, stable), `meta` keeps every field
 * but the content.
 *
 * Tool results: the model's tool calls are `tool_use` blocks, but Cline
 * sends their results back as text blocks of the next user message, each
 * opening with `[<tool> for '<argument>'] Result:` (older releases and Roo
 * send `tool_result` blocks, read as any Anthropic array's). Each such text
 * block is a tool result of its own, answering the previous assistant
 * message's call of that tool, in order; the rest of the user message (the
 * user's words in `<task>`, `<feedback>`, `<answer>`, `<user_message>`, and
 * the harness's `<environment_details>` and reminders) stays a user message.
 * The working directory is the one the last `<environment_details>` names
 * (a resumed task may have moved).
 *
 * Compactions, from the agents' own records:
 * - Cline never deletes: a UI message's `conversationHistoryDeletedRange
 *   [start, end]` names the history indices no longer sent; a new range is a
 *   compaction ("cline-truncation"), placed after the history index the UI
 *   message names (`conversationHistoryIndex`).
 * - Roo and Kilo condense in place: the summary has `isSummary` and a
 *   `condenseId`; each message it replaced keeps its content and gains
 *   `condenseParent` ("roo-condense"). Truncation likewise: a marker with
 *   `isTruncationMarker` and `truncationId`, hidden messages with
 *   `truncationParent` ("roo-truncation").
 * - Older Roo (a summary with `isSummary` and no `condenseId`) overwrote the
 *   history instead: the file keeps the first message, the summary and what
 *   followed, and the messages the summary replaced are gone from it (the
 *   UI log, ui_messages.json, keeps the conversation as shown and the
 *   condense's `contextCondense` figures). Such a summary is a "roo-condense"
 *   whose before is what the file still holds, with a warning that says so.
 */
import type { Entry, Message, UsageSeries } from "../model.ts";
import { SessionError } from "../model.ts";
import { anthropicContent, splitUserContent } from "./anthropic-blocks.ts";
import { isRecord, without, type ReaderOutput } from "./common.ts";
import { replayedHistory, type CompactionStep } from "../compactions/common.ts";

/** Fields only Cline, Roo or Kilo add to an Anthropic message. */
const TASK_FIELDS = ["ts", "condenseId", "condenseParent", "isSummary", "truncationId", "truncationParent", "isTruncationMarker"];

export interface ClineTask {
  /** api_conversation_history.json, parsed. */
  history: unknown;
  /** ui_messages.json, parsed, when given. */
  ui?: unknown;
  /** task_metadata.json, parsed, when given. */
  metadata?: unknown;
}

/**
 * An Anthropic-shaped array with the agents' own fields, or whose first user
 * turn opens with Cline's `<task>` wrapper (a plain Cline history has no other
 * mark of its own). Loading the task folder names the file and needs neither.
 */
export function looksLikeClineHistory(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  if (!value.every((m) => isRecord(m) && (m.role === "user" || m.role === "assistant"))) return false;
  if (value.some((m) => TASK_FIELDS.some((field) => field in (m as Record<string, unknown>)))) return true;
  const first = value[0] as Record<string, unknown>;
  const text = typeof first.content === "string" ? first.content : Array.isArray(first.content) && isRecord(first.content[0]) ? first.content[0].text : undefined;
  return first.role === "user" && typeof text === "string" && text.trimStart().startsWith("<task>");
}

/** A text block that is a tool's result: "[read_file for 'src/a.ts'] Result:", "[attempt_completion] Result:". */
const TEXT_RESULT = /^\[([A-Za-z_][\w-]*)(?: for [\s\S]*?)?\] Result:/;
/** Cline's environment details name the working directory: "# Current Working Directory (c:/Apps/x) Files". */
const WORKING_DIRECTORY = /# Current Working Directory \(([^)\n]+)\)/g;

interface PendingCall {
  id: string;
  name: string;
}

/**
 * A user message's blocks, its text-block tool results split out as tool results of their own
 * (see the file's comment), each paired with the open call of the same tool, in order.
 */
function clineUserMessages(id: string, content: unknown, meta: Record<string, unknown>, line: number, calls: PendingCall[]): Message[] {
  if (!Array.isArray(content) || !content.some((b) => isRecord(b) && b.type === "text" && typeof b.text === "string" && TEXT_RESULT.test(b.text))) {
    return splitUserContent(id, content, meta, line, "user");
  }
  const out: Message[] = [];
  let pending: unknown[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    out.push(...splitUserContent(`${id}#${out.length}`, pending, meta, line, "user"));
    pending = [];
  };
  for (const block of content) {
    const match = isRecord(block) && block.type === "text" && typeof block.text === "string" ? TEXT_RESULT.exec(block.text) : null;
    if (!match) {
      pending.push(block);
      continue;
    }
    flush();
    const name = match[1]!;
    const at = calls.findIndex((call) => call.name === name);
    const call = at >= 0 ? calls.splice(at, 1)[0] : undefined;
    out.push({
      id: `${id}#${out.length}`,
      role: "toolResult",
      meta: { ...meta, toolName: name, ...(call ? { toolCallId: call.id } : {}) },
      blocks: anthropicContent([block]),
      line,
    });
  }
  flush();
  if (out.length === 1) out[0]!.id = id;
  return out;
}

/** The working directory the last environment details of the history name. */
function workingDirectory(history: unknown[]): string | undefined {
  const texts: string[] = [];
  for (const message of history) {
    if (!isRecord(message) || message.role !== "user" || !Array.isArray(message.content)) continue;
    for (const block of message.content) if (isRecord(block) && typeof block.text === "string") texts.push(block.text);
  }
  return lastWorkingDirectory(texts);
}

/** The working directory the last of these texts' environment details names (a history's user blocks, a UI log's requests). */
export function lastWorkingDirectory(texts: Iterable<string>): string | undefined {
  let found: string | undefined;
  for (const text of texts) {
    if (!text.includes("# Current Working Directory (")) continue;
    for (const match of text.matchAll(WORKING_DIRECTORY)) found = match[1]!.trim();
  }
  return found;
}

export function readCline(task: ClineTask, strict: boolean): ReaderOutput {
  if (!Array.isArray(task.history)) throw new SessionError(1, "api_conversation_history.json must be an array of messages");
  const warnings: ReaderOutput["warnings"] = [];
  const toolCallIds = new Set<string>();
  const entries: Entry[] = [];
  let previousId: string | null = null;
  /** The last assistant message's tool calls not yet answered. */
  let openCalls: PendingCall[] = [];
  task.history.forEach((message, index) => {
    const id = `m${index}`;
    const line = index + 1;
    let messages: Message[];
    if (isRecord(message) && (message.role === "user" || message.role === "assistant")) {
      const meta = without(message, "content");
      const role = message.isSummary === true ? "summary" : message.role;
      if (message.role === "user") {
        messages = role === "summary" ? splitUserContent(id, message.content, meta, line, "summary") : clineUserMessages(id, message.content, meta, line, openCalls);
        openCalls = [];
      } else {
        const blocks = anthropicContent(message.content, toolCallIds);
        openCalls = blocks.flatMap((b) => (b.type === "toolCall" ? [{ id: b.id, name: b.name }] : []));
        messages = [{ id, role, meta, blocks, line }];
      }
    } else {
      if (strict) throw new SessionError(line, `message ${index} has no user/assistant "role"`);
      warnings.push({ line, message: `message ${index} has no user/assistant "role"; kept as raw` });
      messages = [{ id, role: "custom", meta: {}, blocks: [{ type: "raw", value: message }], line }];
    }
    entries.push({ id, parentId: previousId, line, type: "message", messages });
    previousId = id;
  });
  const ui = Array.isArray(task.ui) ? task.ui.filter(isRecord) : [];
  const ranges = deletedRanges(ui);
  const condenses = uiCondenses(ui);
  const overwritten = entries.filter((entry) => entry.messages[0]?.meta.isSummary === true && entry.messages[0]?.meta.condenseId === undefined);
  if (overwritten.length > 0) {
    const shown =
      condenses.length > overwritten.length ? `; ui_messages.json records ${condenses.length} condenses, the history keeps the last summary of ${overwritten.length}` : "";
    warnings.push({
      line: overwritten[0]!.line,
      message: `the history before the condense summary at message ${overwritten[0]!.line - 1} was overwritten (Roo Code before condenseParent): the messages it replaced are not in api_conversation_history.json (ui_messages.json shows them as displayed)${shown}`,
    });
  }
  return {
    format: "cline",
    header: { cwd: workingDirectory(task.history), taskMetadata: task.metadata, uiMessages: Array.isArray(task.ui) ? task.ui.length : undefined },
    entries,
    warnings,
    toolCallIds,
    offTreeRecords: {},
    defaultLeafId: previousId,
    ...replayedHistory((path) => contextItems(path, ranges, condenses)),
    usage: () => clineUsage(ui),
  };
}

interface DeletedRange {
  /** Position in ui_messages.json (1-based). */
  uiLine: number;
  /** The history index the request was built at: the range applies after it. */
  afterIndex: number;
  start: number;
  end: number;
  ts?: number;
}

/** How many times the UI log's deleted range changed: Cline's truncations. */
export function deletedRangeChanges(ui: Record<string, unknown>[]): number {
  return deletedRanges(ui).length;
}

/** Each change of Cline's deleted range in the UI log, in order. */
function deletedRanges(ui: Record<string, unknown>[]): DeletedRange[] {
  const out: DeletedRange[] = [];
  let last = "";
  ui.forEach((message, index) => {
    const range = message.conversationHistoryDeletedRange;
    if (!Array.isArray(range) || typeof range[0] !== "number" || typeof range[1] !== "number") return;
    const key = `${range[0]}-${range[1]}`;
    if (key === last) return;
    last = key;
    const afterIndex = typeof message.conversationHistoryIndex === "number" ? message.conversationHistoryIndex : Number.POSITIVE_INFINITY;
    out.push({ uiLine: index + 1, afterIndex, start: range[0], end: range[1], ts: typeof message.ts === "number" ? message.ts : undefined });
  });
  return out;
}

/** The history index a message came from (its line is index + 1). */
function historyIndex(message: Message): number {
  return (message.line ?? 0) - 1;
}

function contextItems(path: Entry[], ranges: DeletedRange[], condenses: readonly UiCondense[] = []): (Message | CompactionStep)[] {
  const items: (Message | CompactionStep)[] = [];
  const pendingRanges = [...ranges];
  const summaries = new Set<unknown>();
  const markers = new Set<unknown>();
  for (const entry of path) {
    const meta = entry.messages[0]?.meta ?? {};
    if (meta.isSummary === true && meta.condenseId !== undefined) summaries.add(meta.condenseId);
    if (meta.isTruncationMarker === true && meta.truncationId !== undefined) markers.add(meta.truncationId);
  }
  const seenSummaries = new Set<unknown>();
  const seenMarkers = new Set<unknown>();
  const rangeStep = (range: DeletedRange, entry: Entry): CompactionStep => ({
    line: entry.line,
    entryId: entry.id,
    timestamp: range.ts !== undefined ? new Date(range.ts).toISOString() : undefined,
    kind: "cline-truncation",
    trigger: "auto",
    tokensBefore: null,
    tokensAfter: null,
    summary: null,
    apply: (before) => before.filter((m) => historyIndex(m) < range.start || historyIndex(m) > range.end),
  });

  for (const entry of path) {
    const meta = entry.messages[0]?.meta ?? {};
    const index = entry.line - 1;
    // Already condensed or truncated away by a summary or marker earlier in the file.
    if ((meta.condenseParent !== undefined && seenSummaries.has(meta.condenseParent)) || (meta.truncationParent !== undefined && seenMarkers.has(meta.truncationParent))) continue;
    if (meta.isSummary === true && summaries.has(meta.condenseId)) {
      seenSummaries.add(meta.condenseId);
      const summary = entry.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === "text" ? [b.text] : []))).join("\n") || null;
      items.push(rooStep(entry, "roo-condense", "condenseParent", meta.condenseId, summary));
    } else if (meta.isSummary === true && meta.condenseId === undefined) {
      items.push(overwrittenCondense(entry, condenses));
    } else if (meta.isTruncationMarker === true && markers.has(meta.truncationId)) {
      seenMarkers.add(meta.truncationId);
      items.push(rooStep(entry, "roo-truncation", "truncationParent", meta.truncationId, null));
    } else {
      items.push(...entry.messages);
    }
    while (pendingRanges.length > 0 && pendingRanges[0]!.afterIndex <= index) items.push(rangeStep(pendingRanges.shift()!, entry));
  }
  const last = path[path.length - 1];
  for (const range of pendingRanges) if (last) items.push(rangeStep(range, last));
  return items;
}

/** A `condense_context` UI message's figures (Roo Code's `contextCondense`). */
interface UiCondense {
  summary: string;
  prevContextTokens: number | null;
  newContextTokens: number | null;
  ts?: number;
}

function uiCondenses(ui: Record<string, unknown>[]): UiCondense[] {
  return ui.flatMap((message) => {
    const condense = message.say === "condense_context" && isRecord(message.contextCondense) ? message.contextCondense : undefined;
    if (!condense) return [];
    const n = (v: unknown) => (typeof v === "number" ? v : null);
    return [
      {
        summary: typeof condense.summary === "string" ? condense.summary : "",
        prevContextTokens: n(condense.prevContextTokens),
        newContextTokens: n(condense.newContextTokens),
        ts: typeof message.ts === "number" ? message.ts : undefined,
      },
    ];
  });
}

/**
 * Older Roo's condense: the summary joins what the file still holds before it (the first message), the
 * messages it replaced being gone from the file. Its figures are the UI log's for the same summary text.
 */
function overwrittenCondense(entry: Entry, condenses: readonly UiCondense[]): CompactionStep {
  const summary = entry.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === "text" ? [b.text] : []))).join("\n") || null;
  const shown = summary ? condenses.find((condense) => condense.summary.trim() !== "" && condense.summary.trim() === summary.trim()) : undefined;
  const ts = entry.messages[0]?.meta.ts;
  return {
    line: entry.line,
    entryId: entry.id,
    timestamp: typeof ts === "number" ? new Date(ts).toISOString() : undefined,
    kind: "roo-condense",
    trigger: null,
    tokensBefore: shown?.prevContextTokens ?? null,
    tokensAfter: shown?.newContextTokens ?? null,
    summary,
    apply: (before) => [...before, ...entry.messages],
  };
}

/** `api_req_started` UI messages carry `{tokensIn, tokensOut, cacheWrites, cacheReads, cost}` as JSON text. */
export function clineUsage(ui: Record<string, unknown>[]): UsageSeries {
  const turns: UsageSeries["turns"] = [];
  ui.forEach((message, index) => {
    if (message.say !== "api_req_started" || typeof message.text !== "string") return;
    let info: unknown;
    try {
      info = JSON.parse(message.text);
    } catch {
      return;
    }
    if (!isRecord(info) || typeof info.tokensIn !== "number") return;
    const n = (v: unknown) => (typeof v === "number" ? v : 0);
    const cacheRead = n(info.cacheReads);
    const cacheWrite = n(info.cacheWrites);
    turns.push({ line: index + 1, input: info.tokensIn, output: n(info.tokensOut), cacheRead, cacheWrite, contextTokens: info.tokensIn + cacheRead + cacheWrite });
  });
  return { turns, contextWindow: null, notes: turns.length > 0 ? ["line is the position in ui_messages.json"] : [] };
}

/**
 * Roo / Kilo condense or truncate in place: the summary (or the truncation
 * marker) hides every message that names it as its parent, and is sent in
 * their stead.
 */
function rooStep(entry: Entry, kind: "roo-condense" | "roo-truncation", parentField: "condenseParent" | "truncationParent", id: unknown, summary: string | null): CompactionStep {
  const ts = entry.messages[0]?.meta.ts;
  return {
    line: entry.line,
    entryId: entry.id,
    timestamp: typeof ts === "number" ? new Date(ts).toISOString() : undefined,
    kind,
    trigger: null,
    tokensBefore: null,
    tokensAfter: null,
    summary,
    apply: (before) => [...before.filter((m) => m.meta[parentField] !== id), ...entry.messages],
  };
}
