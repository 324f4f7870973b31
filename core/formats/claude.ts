/**
 * Claude Code transcripts (JSONL). Tree by uuid/parentUuid; a compact boundary
 * starts a new root whose logicalParentUuid names the last line before it, so
 * we link through it to keep the whole history on one branch. One API message
 * is streamed as several lines sharing message.id: they merge into one message.
 * Parallel tool results hang off the tree as siblings of the next tool_use
 * line; the branch takes them in so every call keeps its result.
 */
import type { Entry, Message } from "../model.ts";
import type { JsonLine } from "../jsonl.ts";
import { SessionError } from "../model.ts";
import { anthropicContent, splitUserContent } from "./anthropic-blocks.ts";
import { countOffTree, isRecord, without, type BranchContext, type ReaderOutput } from "./common.ts";
import { claudeCompactionHistory } from "../compactions/claude.ts";
import { claudeUsage } from "../usage/claude.ts";

const CLAUDE_TYPES = new Set(["user", "assistant", "system", "summary", "progress", "file-history-snapshot", "queue-operation"]);

export function looksLikeClaude(records: JsonLine[]): boolean {
  return records
    .slice(0, 20)
    .some(({ value }) => isRecord(value) && typeof value.type === "string" && CLAUDE_TYPES.has(value.type) && ("uuid" in value || "sessionId" in value || "leafUuid" in value));
}

export function readClaude(records: JsonLine[], strict: boolean): ReaderOutput {
  const warnings: ReaderOutput["warnings"] = [];
  const toolCallIds = new Set<string>();
  const offTreeRecords: Record<string, number> = {};
  const entries: Entry[] = [];
  let version: string | undefined;
  let header: unknown;
  let defaultLeafId: string | null = null;
  // Compact boundaries: where they point, and the last main-chain message before them.
  const logicalLinks: { line: number; logicalParent: string; fallback: string | null }[] = [];

  for (const { line, value } of records) {
    if (!isRecord(value) || typeof value.type !== "string") {
      if (strict) throw new SessionError(line, 'a Claude Code record must be an object with a "type"');
      warnings.push({ line, message: "not a Claude Code record; skipped" });
      continue;
    }
    if (typeof value.uuid !== "string") {
      countOffTree(offTreeRecords, value.type);
      continue;
    }
    if (typeof value.version === "string") version = value.version;
    header ??= { sessionId: value.sessionId, cwd: value.cwd, version: value.version, gitBranch: value.gitBranch };
    let parentId = typeof value.parentUuid === "string" ? value.parentUuid : null;
    if (parentId === null && typeof value.logicalParentUuid === "string") {
      parentId = value.logicalParentUuid;
      logicalLinks.push({ line, logicalParent: parentId, fallback: defaultLeafId });
    }
    const entry: Entry = { id: value.uuid, parentId, line, type: entryType(value), messages: claudeMessages(value, line, toolCallIds) };
    if (value.isSidechain === true) entry.sidechain = true;
    if (entry.messages.length === 0) entry.data = without(value, "message");
    entries.push(entry);
    if (entry.messages.length > 0 && !entry.sidechain) defaultLeafId = entry.id;
  }

  // Real files name a logicalParentUuid that was never written (seen in Claude
  // Code 2.1.33). The history before the boundary is still the same
  // conversation, so link to the last message line before it, and say so.
  if (logicalLinks.length > 0) {
    const known = new Set(entries.map((entry) => entry.id));
    for (const link of logicalLinks) {
      if (known.has(link.logicalParent)) continue;
      const entry = entries.find((e) => e.line === link.line)!;
      entry.parentId = link.fallback;
      warnings.push({
        line: link.line,
        message: `compact boundary's logicalParentUuid "${link.logicalParent}" names no line; linked to the last message before it`,
      });
    }
  }

  return {
    format: "claude",
    formatVersion: version,
    header,
    entries,
    warnings,
    toolCallIds,
    offTreeRecords,
    defaultLeafId,
    isLeafCandidate: (entry) => entry.messages.length > 0 && entry.messages.some((m) => m.role !== "toolResult"),
    branchMessages: claudeBranch,
    recorded: (path, context) => claudeCompactionHistory(path, claudeBranch(path, context), context).recorded,
    compactions: (path, context) => claudeCompactionHistory(path, claudeBranch(path, context), context).compactions,
    usage: claudeUsage,
  };
}

function entryType(record: Record<string, unknown>): string {
  if (record.type === "system" && typeof record.subtype === "string") return record.subtype;
  return record.type as string;
}

function claudeMessages(record: Record<string, unknown>, line: number, toolCallIds: Set<string>): Message[] {
  const message = record.message;
  if (!isRecord(message)) return [];
  const meta: Record<string, unknown> = { ...without(message, "content"), record: without(record, "message") };
  const id = record.uuid as string;
  if (record.type === "assistant") {
    return [{ id, role: "assistant", meta, blocks: anthropicContent(message.content, toolCallIds), line }];
  }
  if (record.type === "user") {
    // Harness text sent as a user line (isMeta): named at the top of meta, where the facts look for it.
    if (record.isMeta === true) meta.isMeta = true;
    return splitUserContent(id, message.content, meta, line, record.isCompactSummary === true ? "summary" : "user").map(markPersistedOutput);
  }
  return [];
}

/**
 * Claude Code 2.1.x writes a large tool result to a sidecar file and leaves a
 * `<persisted-output>` preview in the transcript: the agent's own omission
 * marker (without a hash). The text stays verbatim; meta.agentOmission says
 * what it is, so a view can badge it.
 */
function markPersistedOutput(message: Message): Message {
  if (message.role !== "toolResult") return message;
  const first = message.blocks.find((b) => b.type === "text");
  if (first?.type !== "text" || !first.text.trimStart().startsWith("<persisted-output>")) return message;
  const size = /Output too large \(([^)]+)\)/.exec(first.text)?.[1];
  const savedTo = /Full output saved to: (\S+)/.exec(first.text)?.[1];
  return { ...message, meta: { ...message.meta, agentOmission: { marker: "persisted-output", ...(size ? { size } : {}), ...(savedTo ? { savedTo } : {}) } } };
}

/**
 * The path's messages plus the parallel tool results that sit beside it, in
 * file order, with streamed assistant lines merged by message.id.
 */
function claudeBranch(path: Entry[], context: BranchContext): Message[] {
  const onPath = new Set(path.map((entry) => entry.id));
  const callsOnPath = new Set<string>();
  for (const entry of path) for (const message of entry.messages) for (const block of message.blocks) if (block.type === "toolCall") callsOnPath.add(block.id);

  const taken: Entry[] = [...path];
  for (const entry of path) {
    for (const childId of context.children.get(entry.id) ?? []) {
      if (onPath.has(childId)) continue;
      const child = context.byId.get(childId);
      if (!child || child.messages.length === 0) continue;
      const answersPath = child.messages.every((m) => m.role === "toolResult" && callsOnPath.has(resultCallId(m)));
      if (answersPath) taken.push(child);
    }
  }
  taken.sort((a, b) => a.line - b.line);

  const out: Message[] = [];
  // Index in `out` of the assistant message that streamed lines may still extend.
  let open = -1;
  for (const entry of taken) {
    for (const message of entry.messages) {
      const apiId = message.meta.id;
      const previous = open === -1 ? undefined : out[open]!;
      if (message.role === "assistant" && previous && typeof apiId === "string" && previous.meta.id === apiId) {
        // A streamed continuation: same API message, next block(s). Entries are
        // shared with other branches, so build a new message instead of mutating.
        const mergedUuids = [...((previous.meta.mergedUuids as string[] | undefined) ?? []), message.id];
        out[open] = { ...previous, meta: { ...previous.meta, mergedUuids }, blocks: [...previous.blocks, ...message.blocks] };
        continue;
      }
      if (message.role === "assistant") open = out.length;
      else if (message.role !== "toolResult") open = -1;
      out.push(message);
    }
  }
  return out;
}

function resultCallId(message: Message): string {
  const result = message.meta.toolResult;
  return isRecord(result) && typeof result.tool_use_id === "string" ? result.tool_use_id : "";
}
