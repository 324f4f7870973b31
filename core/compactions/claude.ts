/**
 * Claude Code's compactions along a branch, walking the branch's messages
 * (streamed lines merged, parallel tool results taken in) in file order.
 *
 * - `compact_boundary` (system line, `compactMetadata {trigger, preTokens,
 *   postTokens?, preservedSegment?}`): the context restarts from the summary,
 *   the next `isCompactSummary` user line, followed by the messages kept
 *   verbatim when the boundary names them: `preservedMessages.uuids` (newer
 *   releases), else `preservedSegment` (from its headUuid, the earliest kept
 *   message, to its tailUuid; its anchorUuid is the summary line).
 * - `microcompact_boundary` (`microcompactMetadata {trigger, preTokens,
 *   tokensSaved, compactedToolIds}`): no summary; the named tool results stay
 *   in the context with their content cleared, as Claude Code sends them.
 */
import type { Entry, Message } from "../model.ts";
import { isRecord, type BranchContext } from "../formats/common.ts";
import { CompactionCollector, numberOr, stringOr, triggerOf, type CompactionHistory } from "./common.ts";

/** What Claude Code puts in place of a cleared tool result. */
export const CLEARED_TOOL_RESULT = "[Old tool result content cleared]";

const BOUNDARIES = new Set(["compact_boundary", "microcompact_boundary"]);

export function claudeCompactionHistory(path: readonly Entry[], branch: readonly Message[], context: BranchContext): CompactionHistory {
  const boundaries = boundariesOf(path, context);
  const collector = new CompactionCollector();
  let current: Message[] = [];
  let next = 0;
  const consumed = new Set<Message>();

  const apply = (boundary: Entry, from: number) => {
    const record = isRecord(boundary.data) ? boundary.data : {};
    const common = { line: boundary.line, entryId: boundary.id, timestamp: stringOr(record.timestamp) };
    if (boundary.type === "microcompact_boundary") {
      const meta = isRecord(record.microcompactMetadata) ? record.microcompactMetadata : {};
      const cleared = new Set(Array.isArray(meta.compactedToolIds) ? meta.compactedToolIds.filter((id): id is string => typeof id === "string") : []);
      const preTokens = numberOr(meta.preTokens);
      const saved = numberOr(meta.tokensSaved);
      const fields = {
        ...common,
        kind: "claude-microcompact" as const,
        trigger: triggerOf(meta.trigger),
        tokensBefore: preTokens,
        // The file states what it saved; before minus saved is its own figure for after, not an estimate.
        tokensAfter: numberOr(meta.postTokens, preTokens !== null && saved !== null ? preTokens - saved : null),
        summary: null,
      };
      current = collector.record(
        fields,
        current,
        current.map((message) => (cleared.has(toolResultCallId(message)) ? clearedResult(message) : message)),
      );
      return;
    }
    const meta = isRecord(record.compactMetadata) ? record.compactMetadata : {};
    const nextBoundaryLine = boundaries[next]?.line ?? Infinity;
    let summary: Message | undefined;
    for (let i = from; i < branch.length && (branch[i]!.line ?? 0) < nextBoundaryLine; i++) {
      if (branch[i]!.role === "summary") {
        summary = branch[i]!;
        break;
      }
    }
    if (summary) consumed.add(summary);
    const after = [...(summary ? [summary] : []), ...preserved(current, meta)];
    const fields = {
      ...common,
      kind: "claude-compact" as const,
      trigger: triggerOf(meta.trigger),
      tokensBefore: numberOr(meta.preTokens),
      tokensAfter: numberOr(meta.postTokens),
      summary: summary ? summaryText(summary) : null,
    };
    current = collector.record(fields, current, after);
  };

  for (let i = 0; i < branch.length; i++) {
    const message = branch[i]!;
    while (next < boundaries.length && boundaries[next]!.line < (message.line ?? 0)) apply(boundaries[next++]!, i);
    if (!consumed.has(message)) current.push(message);
  }
  while (next < boundaries.length) apply(boundaries[next++]!, branch.length);
  return collector.finish(current, branch);
}

/**
 * The boundaries on the path, and those hanging off it as dead ends. Real
 * files (Claude Code 2.1.20) write a microcompact boundary and then a compact
 * boundary whose logicalParentUuid names no line, so the reader links the
 * compact boundary to the last message and the microcompact is left as a
 * childless sibling. It still happened on this branch, before the branch
 * went on: a childless boundary beside the path, older than the path's last
 * entry, is taken in.
 */
function boundariesOf(path: readonly Entry[], context: BranchContext): Entry[] {
  const lastLine = path.length > 0 ? path[path.length - 1]!.line : 0;
  const out = path.filter((entry) => BOUNDARIES.has(entry.type));
  // Boundary lines are few: the ones off the path are found among them, and only then is the path
  // indexed (a followed file's every look reads this, and a Set of a 100 MB path's ids cost ~40 ms).
  const taken = new Set(out);
  let onPath: Set<string> | null = null;
  for (const entry of context.byId.values()) {
    if (!BOUNDARIES.has(entry.type) || taken.has(entry) || entry.sidechain || entry.parentId === null || entry.line >= lastLine) continue;
    if ((context.children.get(entry.id) ?? []).length > 0 || !(context.children.get(entry.parentId) ?? []).includes(entry.id)) continue;
    onPath ??= new Set(path.map((pathEntry) => pathEntry.id));
    if (onPath.has(entry.parentId) && !onPath.has(entry.id)) out.push(entry);
  }
  return out.sort((a, b) => a.line - b.line);
}

/** The messages a compact boundary keeps verbatim, as they stood before it. */
function preserved(context: readonly Message[], meta: Record<string, unknown>): Message[] {
  const listed = isRecord(meta.preservedMessages) ? meta.preservedMessages.uuids : undefined;
  if (Array.isArray(listed)) {
    const uuids = listed.filter((uuid): uuid is string => typeof uuid === "string");
    return context.filter((message) => uuids.some((uuid) => carriesUuid(message, uuid)));
  }
  return preservedSegment(context, meta.preservedSegment);
}

/** The messages a boundary's preservedSegment names, from headUuid to tailUuid. */
function preservedSegment(context: readonly Message[], segment: unknown): Message[] {
  if (!isRecord(segment) || typeof segment.headUuid !== "string") return [];
  const tail = typeof segment.tailUuid === "string" ? segment.tailUuid : segment.headUuid;
  const start = context.findIndex((message) => carriesUuid(message, segment.headUuid as string));
  if (start === -1) return [];
  let end = context.length - 1;
  for (let i = start; i < context.length; i++) {
    if (carriesUuid(context[i]!, tail)) {
      end = i;
      break;
    }
  }
  return context.slice(start, end + 1);
}

/** A message carries a line's uuid as its id, as a split part (`uuid#n`), or as a merged streamed line. */
function carriesUuid(message: Message, uuid: string): boolean {
  if (message.id === uuid || message.id.startsWith(`${uuid}#`)) return true;
  const merged = message.meta.mergedUuids;
  return Array.isArray(merged) && merged.includes(uuid);
}

function toolResultCallId(message: Message): string {
  if (message.role !== "toolResult") return "";
  const result = message.meta.toolResult;
  return isRecord(result) && typeof result.tool_use_id === "string" ? result.tool_use_id : "";
}

function clearedResult(message: Message): Message {
  return { ...message, blocks: [{ type: "text", text: CLEARED_TOOL_RESULT }] };
}

function summaryText(message: Message): string {
  return message.blocks.map((block) => (block.type === "text" ? block.text : "")).join("\n");
}
