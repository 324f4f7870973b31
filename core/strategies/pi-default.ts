/**
 * Pi's default compaction, re-implemented from Pi 0.73.1's compaction.ts:
 * the same cut point (walk back from the newest message summing
 * ceil(chars/4) estimates until keepRecentTokens, never cutting at a tool
 * result, split turns detected), the same cumulative read/modified file
 * lists, the kept tail verbatim. The summary is a model's job in Pi; without
 * a model endpoint the summary slot says that none was written. The cut is
 * checked against Pi's own prepareCompaction in test/core/strategies.
 */
import { computeStats } from "../checkpoint.ts";
import { archiveRemovals } from "./shared.ts";
import { textOf, type Block, type Entry, type Message } from "../model.ts";
import { summarizeWithEndpoint } from "../summarize.ts";
import type { StrategyContext, StrategyResult } from "./types.ts";

export const PI_KEEP_RECENT_TOKENS = 20_000;

export interface PiCut {
  firstKeptEntryId: string;
  isSplitTurn: boolean;
  tokensBefore: number;
}

/** The entry as Pi sees it: its type, and for "message" entries the Pi role. */
function piRole(message: Message): string {
  switch (message.role) {
    case "bash":
      return "bashExecution";
    case "summary":
      return "compactionSummary";
    default:
      return message.role;
  }
}

function textLength(blocks: readonly Block[], imageChars = 0): number {
  let chars = 0;
  for (const block of blocks) {
    if (block.type === "text") chars += block.text.length;
    else if (block.type === "image") chars += imageChars;
  }
  return chars;
}

/** Pi's estimateTokens(message), on the neutral message. */
export function estimatePiTokens(message: Message): number {
  let chars = 0;
  switch (piRole(message)) {
    case "user":
      chars = textLength(message.blocks);
      break;
    case "assistant":
      for (const block of message.blocks) {
        if (block.type === "text" || block.type === "thinking") chars += block.text.length;
        else if (block.type === "toolCall") chars += block.name.length + (JSON.stringify(block.arguments) ?? "").length;
      }
      break;
    case "custom":
    case "toolResult":
      chars = textLength(message.blocks, 4800); // Pi counts an image as 4,800 characters
      break;
    case "bashExecution":
      chars = String(message.meta.command ?? "").length + textLength(message.blocks);
      break;
    case "compactionSummary":
      chars = textLength(message.blocks);
      break;
    default:
      return 0;
  }
  return Math.ceil(chars / 4);
}

/** Pi's estimateContextTokens: the last assistant usage, plus estimates for what follows it. */
export function estimatePiContextTokens(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    const usage = message.meta.usage as { totalTokens?: number; input?: number; output?: number; cacheRead?: number; cacheWrite?: number } | undefined;
    const stop = message.meta.stopReason;
    // Pi's usage shape only (other formats name their fields differently: estimate those).
    const piUsage = usage && (typeof usage.totalTokens === "number" || typeof usage.input === "number");
    if (message.role === "assistant" && piUsage && stop !== "aborted" && stop !== "error") {
      let tokens = usage.totalTokens || (usage.input ?? 0) + (usage.output ?? 0) + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
      for (let j = i + 1; j < messages.length; j++) tokens += estimatePiTokens(messages[j]!);
      return tokens;
    }
  }
  return messages.reduce((sum, message) => sum + estimatePiTokens(message), 0);
}

function isMessageEntry(entry: Entry): boolean {
  return entry.type === "message" && entry.messages.length > 0;
}

function entryRole(entry: Entry): string | undefined {
  return isMessageEntry(entry) ? piRole(entry.messages[0]!) : undefined;
}

function validCutPoints(entries: readonly Entry[], start: number, end: number): number[] {
  const cuts: number[] = [];
  for (let i = start; i < end; i++) {
    const entry = entries[i]!;
    const role = entryRole(entry);
    if (role !== undefined && role !== "toolResult") cuts.push(i);
    if (entry.type === "branch_summary" || entry.type === "custom_message") cuts.push(i);
  }
  return cuts;
}

function turnStart(entries: readonly Entry[], index: number, start: number): number {
  for (let i = index; i >= start; i--) {
    const entry = entries[i]!;
    if (entry.type === "branch_summary" || entry.type === "custom_message") return i;
    const role = entryRole(entry);
    if (role === "user" || role === "bashExecution") return i;
  }
  return -1;
}

/** Pi's findCutPoint. */
export function findPiCutPoint(entries: readonly Entry[], start: number, end: number, keepRecentTokens: number) {
  const cuts = validCutPoints(entries, start, end);
  if (cuts.length === 0) return { firstKeptEntryIndex: start, turnStartIndex: -1, isSplitTurn: false };
  let accumulated = 0;
  let cutIndex = cuts[0]!;
  for (let i = end - 1; i >= start; i--) {
    const entry = entries[i]!;
    if (entry.type !== "message") continue;
    accumulated += entry.messages[0] ? estimatePiTokens(entry.messages[0]) : 0;
    if (accumulated >= keepRecentTokens) {
      const next = cuts.find((c) => c >= i);
      if (next !== undefined) cutIndex = next;
      break;
    }
  }
  while (cutIndex > start) {
    const previous = entries[cutIndex - 1]!;
    if (previous.type === "compaction" || previous.type === "message") break;
    cutIndex--;
  }
  const isUser = entryRole(entries[cutIndex]!) === "user";
  const turnStartIndex = isUser ? -1 : turnStart(entries, cutIndex, start);
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !isUser && turnStartIndex !== -1 };
}

/** Pi's cumulative file lists: the previous compaction's details plus read/write/edit calls being summarised. */
function fileLists(summarised: readonly Message[], previous: Entry | undefined) {
  const read = new Set<string>();
  const modified = new Set<string>();
  const details = previous?.messages[0]?.meta.details as { readFiles?: unknown; modifiedFiles?: unknown } | undefined;
  if (previous && previous.messages[0]?.meta.fromHook !== true && details) {
    if (Array.isArray(details.readFiles)) for (const f of details.readFiles) if (typeof f === "string") read.add(f);
    if (Array.isArray(details.modifiedFiles)) for (const f of details.modifiedFiles) if (typeof f === "string") modified.add(f);
  }
  for (const message of summarised) {
    if (message.role !== "assistant") continue;
    for (const block of message.blocks) {
      if (block.type !== "toolCall") continue;
      const path = (block.arguments as { path?: unknown } | null)?.path;
      if (typeof path !== "string") continue;
      if (block.name === "read") read.add(path);
      else if (block.name === "write" || block.name === "edit") modified.add(path);
    }
  }
  return { readFiles: [...read].filter((f) => !modified.has(f)).sort(), modifiedFiles: [...modified].sort() };
}

/** Entries to walk: the Pi path itself, or for other formats one "message" entry per branch message. */
function entriesFor(branch: readonly Message[], context: StrategyContext): readonly Entry[] {
  if (context.format === "pi" && context.path) return context.path;
  return branch.map((message, i) => ({ id: message.id, parentId: i === 0 ? null : branch[i - 1]!.id, line: message.line ?? i + 1, type: "message", messages: [message] }));
}

export const NO_SUMMARY_NOTE =
  "No summary was written: Pi's default compaction asks a model for it (sections Goal, Constraints & Preferences, Progress, Key Decisions, Next Steps, Critical Context), and no model endpoint is set. Everything before the cut is in the archive.";

export async function piDefault(branch: readonly Message[], options: { keepRecentTokens?: number }, context: StrategyContext): Promise<StrategyResult> {
  const keepRecentTokens = options.keepRecentTokens ?? PI_KEEP_RECENT_TOKENS;
  const entries = entriesFor(branch, context);
  const recordedMessages = context.recorded?.messages ?? branch;
  if (entries.length === 0 || entries[entries.length - 1]!.type === "compaction") {
    // Pi does not compact right after a compaction: the context stays as it is.
    return {
      active: [...recordedMessages],
      archive: [],
      stats: computeStats(branch, recordedMessages, 0, 0),
      details: { cut: null, note: "nothing to compact (the branch ends in a compaction)" },
    };
  }
  let previousIndex = -1;
  for (let i = entries.length - 1; i >= 0; i--)
    if (entries[i]!.type === "compaction") {
      previousIndex = i;
      break;
    }
  const previous = previousIndex >= 0 ? entries[previousIndex] : undefined;
  let boundaryStart = 0;
  if (previous) {
    const firstKept = previous.messages[0]?.meta.firstKeptEntryId;
    const at = entries.findIndex((e) => e.id === firstKept);
    boundaryStart = at >= 0 ? at : previousIndex + 1;
  }
  const tokensBefore = estimatePiContextTokens(recordedMessages);
  const cut = findPiCutPoint(entries, boundaryStart, entries.length, keepRecentTokens);
  const firstKept = entries[cut.firstKeptEntryIndex]!;
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const contributes = (entry: Entry) => entry.type !== "compaction" && entry.messages.length > 0;
  const summarised: Message[] = [];
  for (let i = boundaryStart; i < historyEnd; i++) if (contributes(entries[i]!)) summarised.push(...entries[i]!.messages);
  const turnPrefix: Message[] = [];
  if (cut.isSplitTurn) for (let i = cut.turnStartIndex; i < cut.firstKeptEntryIndex; i++) if (contributes(entries[i]!)) turnPrefix.push(...entries[i]!.messages);
  const { readFiles, modifiedFiles } = fileLists([...summarised, ...turnPrefix], previous);

  const sections: string[] = [];
  if (readFiles.length > 0) sections.push(`<read-files>\n${readFiles.join("\n")}\n</read-files>`);
  if (modifiedFiles.length > 0) sections.push(`<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>`);
  let summaryBody = NO_SUMMARY_NOTE;
  let summaryStatus = "none (no model endpoint)";
  if (context.endpoint && summarised.length + turnPrefix.length > 0) {
    const previousSummary = previous?.messages[0] ? textOf(previous.messages[0]) : undefined;
    const written = await summarizeWithEndpoint([...(previousSummary ? [previous!.messages[0]!] : []), ...summarised, ...turnPrefix], context.endpoint);
    if (written.ok) {
      summaryBody = written.text;
      summaryStatus = `written by ${context.endpoint.model}`;
    } else {
      summaryBody = `No summary was written: the model endpoint failed (${written.reason}). Everything before the cut is in the archive.`;
      summaryStatus = `failed: ${written.reason}`;
    }
  }
  const summaryText = summaryBody + (sections.length ? `\n\n${sections.join("\n\n")}` : "");
  const summary: Message = {
    id: "pi-default:summary",
    role: "summary",
    meta: { strategy: "pi-default", tokensBefore, firstKeptEntryId: firstKept.id },
    blocks: [{ type: "text", text: summaryText }],
  };

  // What the model sees next: the summary, then every entry from the cut on, as buildSessionContext would.
  const kept: Message[] = [];
  for (let i = cut.firstKeptEntryIndex; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.type === "compaction") continue;
    if (entry.type === "branch_summary") {
      const block = entry.messages[0]?.blocks[0];
      if (!(block?.type === "text" && block.text !== "")) continue;
    }
    kept.push(...entry.messages);
  }
  const active = [summary, ...kept];

  // Everything the compaction dropped stays recoverable, whole.
  const keptIds = new Set(kept.map((m) => m.id));
  const dropped = branch.filter((m) => !keptIds.has(m.id));
  const archive = await archiveRemovals(dropped.map((message) => ({ message, path: "", payload: message, kind: "message" as const })));
  const piCut: PiCut = { firstKeptEntryId: firstKept.id, isSplitTurn: cut.isSplitTurn, tokensBefore };
  return {
    active,
    archive,
    stats: computeStats(branch, active, archive.length, 0),
    details: { cut: piCut, readFiles, modifiedFiles, summarisedMessages: summarised.length, turnPrefixMessages: turnPrefix.length, summary: summaryStatus },
  };
}
