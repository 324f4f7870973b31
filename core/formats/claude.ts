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
import type { CompactionHistory } from "../compactions/common.ts";
import { ClaudeUsageFold, claudeUsage } from "../usage/claude.ts";

const CLAUDE_TYPES = new Set(["user", "assistant", "system", "summary", "progress", "file-history-snapshot", "queue-operation"]);

export function looksLikeClaude(records: JsonLine[]): boolean {
  return records
    .slice(0, 20)
    .some(({ value }) => isRecord(value) && typeof value.type === "string" && CLAUDE_TYPES.has(value.type) && ("uuid" in value || "sessionId" in value || "leafUuid" in value));
}

export function readClaude(records: JsonLine[], strict: boolean): ReaderOutput {
  const reader = new ClaudeReader(strict);
  for (const record of records) reader.add(record);
  return reader.finish();
}

/**
 * The Claude Code reader, fed one record at a time. `mapEntry`: what to keep
 * of each entry made (null: nothing), as for PiReader: the CLI's streamed
 * compaction keeps outlines on its first read and takes the entries one by
 * one on its second (core/compact-stream.ts).
 */
export class ClaudeReader {
  private readonly warnings: ReaderOutput["warnings"] = [];
  private readonly toolCallIds = new Set<string>();
  private readonly offTreeRecords: Record<string, number> = {};
  private readonly entries: Entry[] = [];
  private version: string | undefined;
  private header: unknown;
  private defaultLeafId: string | null = null;
  /** Compact boundaries: where they point, and the last main-chain message before them. */
  /** The ids of the entries kept, up to `knownUpTo` (kept across calls of finish on a followed file). */
  private known: Set<string> | null = null;
  private knownUpTo = 0;
  private readonly logicalLinks: { line: number; logicalParent: string; fallback: string | null; entry: Entry | null }[] = [];

  constructor(
    private readonly strict: boolean,
    private readonly mapEntry?: (entry: Entry) => Entry | null,
  ) {}

  /**
   * A reader that goes on after records another one took (the library reads a grown file from where
   * its last read ended, core/library/resume.ts): until a new message line, the default leaf is the
   * one that read ended on.
   */
  static resumed(defaultLeafId: string | null, strict = false): ClaudeReader {
    const reader = new ClaudeReader(strict);
    reader.defaultLeafId = defaultLeafId;
    return reader;
  }

  add({ line, value }: JsonLine): void {
    if (!isRecord(value) || typeof value.type !== "string") {
      if (this.strict) throw new SessionError(line, 'a Claude Code record must be an object with a "type"');
      this.warnings.push({ line, message: "not a Claude Code record; skipped" });
      return;
    }
    if (typeof value.uuid !== "string") {
      countOffTree(this.offTreeRecords, value.type);
      return;
    }
    if (typeof value.version === "string") this.version = value.version;
    this.header ??= { sessionId: value.sessionId, cwd: value.cwd, version: value.version, gitBranch: value.gitBranch };
    let parentId = typeof value.parentUuid === "string" ? value.parentUuid : null;
    const logicalLink = parentId === null && typeof value.logicalParentUuid === "string";
    if (logicalLink) parentId = value.logicalParentUuid as string;
    const fallback = this.defaultLeafId;
    const entry: Entry = { id: value.uuid, parentId, line, type: entryType(value), messages: claudeMessages(value, line, this.toolCallIds) };
    if (value.isSidechain === true) entry.sidechain = true;
    if (entry.messages.length === 0) entry.data = without(value, "message");
    const kept = this.mapEntry ? this.mapEntry(entry) : entry;
    if (kept) this.entries.push(kept);
    // The entry itself, not its line: finish() is called on every look at a followed file.
    if (logicalLink) this.logicalLinks.push({ line, logicalParent: parentId!, fallback, entry: kept });
    if (entry.messages.length > 0 && !entry.sidechain) this.defaultLeafId = entry.id;
  }

  /** The output so far; called again after more records (a followed file), it says each repair once. */
  finish(): ReaderOutput {
    const { entries } = this;
    const warnings = [...this.warnings];
    // Real files name a logicalParentUuid that was never written (seen in Claude
    // Code 2.1.33). The history before the boundary is still the same
    // conversation, so link to the last message line before it, and say so.
    if (this.logicalLinks.length > 0) {
      const known = (this.known ??= new Set());
      for (; this.knownUpTo < entries.length; this.knownUpTo++) known.add(entries[this.knownUpTo]!.id);
      for (const link of this.logicalLinks) {
        if (known.has(link.logicalParent) || !link.entry) continue;
        link.entry.parentId = link.fallback;
        warnings.push({
          line: link.line,
          message: `compact boundary's logicalParentUuid "${link.logicalParent}" names no line; linked to the last message before it`,
        });
      }
    }

    return {
      format: "claude",
      formatVersion: this.version,
      header: this.header,
      entries,
      warnings,
      toolCallIds: this.toolCallIds,
      offTreeRecords: this.offTreeRecords,
      defaultLeafId: this.defaultLeafId,
      isLeafCandidate: (entry) => entry.messages.length > 0 && entry.messages.some((m) => m.role !== "toolResult"),
      branchEntries: claudeBranchEntries,
      branchMessages: claudeBranch,
      resumeBranch: claudeResumeBranch,
      recorded: (path, context, branch) => historyOf(path, context, branch).recorded,
      compactions: (path, context, branch) => historyOf(path, context, branch).compactions,
      usage: claudeUsage,
      usageFold: () => new ClaudeUsageFold(),
    };
  }
}

/** Each branch's compaction history, read once for both its recorded context and its compactions. */
const histories = new WeakMap<readonly Message[], CompactionHistory>();

/**
 * The compactions of a path, read over its branch: the session's own where it has one (a followed
 * file's is gone on from its last look, not made again from the path), and then read once per branch.
 */
function historyOf(path: Entry[], context: BranchContext, branch?: () => Message[]): CompactionHistory {
  const messages = branch?.() ?? claudeBranch(path, context);
  let history = histories.get(messages);
  if (!history) histories.set(messages, (history = claudeCompactionHistory(path, messages, context)));
  return history;
}

function entryType(record: Record<string, unknown>): string {
  if (record.type === "system" && typeof record.subtype === "string") return record.subtype;
  return record.type as string;
}

export function claudeMessages(record: Record<string, unknown>, line: number, toolCallIds: Set<string>): Message[] {
  const queued = queuedCommand(record, line);
  if (queued) return [queued];
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
 * A message the user typed while the agent was working: Claude Code records
 * it as an `attachment` line (`{type: "queued_command", prompt, commandMode:
 * "prompt", origin: {kind: "human"}}`) and hands it to the model with the
 * turn it arrived in. It is the user's own words, so it is a user message,
 * marked `meta.queuedCommand`; a queued bash command is not a prompt and is
 * left as the line it is.
 */
function queuedCommand(record: Record<string, unknown>, line: number): Message | null {
  const attachment = record.attachment;
  if (record.type !== "attachment" || !isRecord(attachment) || attachment.type !== "queued_command" || typeof attachment.prompt !== "string") return null;
  if (attachment.commandMode !== undefined && attachment.commandMode !== "prompt") return null;
  return {
    id: record.uuid as string,
    role: "user",
    meta: { queuedCommand: without(attachment, "prompt"), record: without(record, "attachment") },
    blocks: [{ type: "text", text: attachment.prompt }],
    line,
  };
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
  const out: Message[] = [];
  const merge = new StreamedLinesMerge();
  for (const entry of claudeBranchEntries(path, context)) for (const message of entry.messages) out.push(...merge.add(message));
  out.push(...merge.finish());
  return out;
}

/**
 * A followed file's branch, from the one served before it grew: the merge picks up where that branch
 * ended (the last assistant message and the results after it may still be extended by a later line),
 * and takes the messages of the path's new entries. Null, for a branch made whole, where the growth
 * could change what came before: a path entry that is not new (it may have been taken beside the
 * path), or a new entry off the path made only of tool results (it may be a parallel result beside it).
 */
function claudeResumeBranch(seed: { messages: readonly Message[]; entries: number }, added: readonly Entry[], entries: readonly Entry[]): Message[] | null {
  const onAdded = new Set(added.map((entry) => entry.id));
  let newOnPath = 0;
  for (let i = seed.entries; i < entries.length; i++) {
    const entry = entries[i]!;
    if (onAdded.has(entry.id)) newOnPath++;
    else if (entry.messages.length > 0 && entry.messages.every((m) => m.role === "toolResult")) return null;
  }
  if (newOnPath !== added.length) return null;
  const { messages } = seed;
  let end = messages.length;
  while (end > 0 && messages[end - 1]!.role === "toolResult") end--;
  // What StreamedLinesMerge still held when that branch was finished: an assistant message and the results after it.
  const heldFrom = end > 0 && messages[end - 1]!.role === "assistant" ? end - 1 : messages.length;
  const merge = StreamedLinesMerge.holding(messages.slice(heldFrom));
  const out = messages.slice(0, heldFrom);
  for (const entry of added) for (const message of entry.messages) out.push(...merge.add(message));
  out.push(...merge.finish());
  return out;
}

/** The entries whose messages make the branch: the path and the parallel tool results beside it that answer its calls, in file order. */
function claudeBranchEntries(path: Entry[], context: BranchContext): Entry[] {
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
  return taken.sort((a, b) => a.line - b.line);
}

/**
 * One API message streamed as several lines (the same message.id) becomes one
 * message, even with tool results between its lines. Fed the branch's
 * messages in order, it hands back each message once nothing can extend it
 * any more: the whole branch in claudeBranch, a batch at a time in the
 * streamed compaction.
 */
export class StreamedLinesMerge {
  /** Messages not handed back yet; the first is the assistant message later lines may still extend. */
  private held: Message[] = [];

  /** A merge that goes on from where another stopped, holding what that one held (a followed file's branch). */
  static holding(held: readonly Message[]): StreamedLinesMerge {
    const merge = new StreamedLinesMerge();
    merge.held = [...held];
    return merge;
  }

  add(message: Message): Message[] {
    const open = this.held[0];
    const apiId = message.meta.id;
    if (message.role === "assistant" && open && typeof apiId === "string" && open.meta.id === apiId) {
      // A streamed continuation: same API message, next block(s). Entries are
      // shared with other branches, so build a new message instead of mutating.
      this.held[0] = mergedLines(open, message);
      return [];
    }
    if (message.role === "toolResult" && open) {
      this.held.push(message);
      return [];
    }
    const done = this.held;
    this.held = message.role === "assistant" ? [message] : [];
    if (message.role !== "assistant") done.push(message);
    return done;
  }

  finish(): Message[] {
    const done = this.held;
    this.held = [];
    return done;
  }
}

/**
 * Merges already made, by their two parts. A branch is built again for every leaf asked about and
 * every look at a followed file; the same two parts give back the same message, so what is cached
 * per message (its token count, its row height) is not counted again for a copy.
 */
const merges = new WeakMap<Message, WeakMap<Message, Message>>();

function mergedLines(open: Message, next: Message): Message {
  let byNext = merges.get(open);
  if (!byNext) merges.set(open, (byNext = new WeakMap()));
  let merged = byNext.get(next);
  if (!merged) {
    const mergedUuids = [...((open.meta.mergedUuids as string[] | undefined) ?? []), next.id];
    merged = { ...open, meta: { ...open.meta, mergedUuids }, blocks: [...open.blocks, ...next.blocks] };
    byNext.set(next, merged);
  }
  return merged;
}

/** The call a tool result answers (its `tool_use_id`; "" when it names none). */
export function resultCallId(message: Message): string {
  const result = message.meta.toolResult;
  return isRecord(result) && typeof result.tool_use_id === "string" ? result.tool_use_id : "";
}
