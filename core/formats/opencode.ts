/**
 * OpenCode `opencode export <sessionID>`: `{info, messages: [{info, parts}]}`.
 * Messages keep OpenCode's ids and file order (linear). An assistant message
 * is one or more model steps (`step-start` … `step-finish`): each step is a
 * message (`<id>`, then `<id>#s<n>`), and each `tool` part adds a toolResult
 * message (the part's id) right after its step. Parts the model never reads
 * (step-start, step-finish, patch, snapshot) travel verbatim in the step's
 * `meta.parts`.
 *
 * Compactions: a user message with a `compaction` part followed by an
 * assistant message with `summary: true` ("opencode-compaction": the model
 * then sees that pair and what follows), and pruning: old tool parts get
 * `state.time.compacted`, their output stays in the file and the model is
 * sent a placeholder instead ("opencode-prune").
 */
import type { Block, Entry, Message, UsageSeries } from "../model.ts";
import { SessionError } from "../model.ts";
import { extraFields, isRecord, without, withExtra, type ReaderOutput } from "./common.ts";
import { replayedHistory, type CompactionStep } from "../compactions/common.ts";

/** What OpenCode sends in place of a pruned tool output (its message-v2 toModelMessage). */
export const PRUNED_OUTPUT = "[Old tool result content cleared]";
const NOT_FOR_THE_MODEL = new Set(["step-start", "step-finish", "patch", "snapshot", "agent", "retry"]);

function isOpenCodeMessage(value: unknown): boolean {
  return isRecord(value) && isRecord(value.info) && typeof value.info.id === "string" && typeof value.info.role === "string" && Array.isArray(value.parts);
}

export function looksLikeOpenCodeExport(value: unknown): boolean {
  return isRecord(value) && isRecord(value.info) && typeof value.info.id === "string" && Array.isArray(value.messages) && value.messages.every(isOpenCodeMessage);
}

export function readOpenCode(value: unknown, strict: boolean): ReaderOutput {
  if (!isRecord(value) || !Array.isArray(value.messages)) throw new SessionError(1, "an OpenCode export is {info, messages:[{info, parts}]}");
  const warnings: ReaderOutput["warnings"] = [];
  const toolCallIds = new Set<string>();
  const entries: Entry[] = [];
  let previousId: string | null = null;
  // An export whose ids were redacted (Entire writes "REDACTED" for ids it scrubs) repeats them: each
  // message is still one of a linear list, so a repeated id is named by its position, not dropped.
  const used = new Set<string>();
  let repeated = 0;
  const unique = (id: string, line: number): string => {
    if (!used.has(id)) {
      used.add(id);
      return id;
    }
    repeated++;
    let n = line;
    while (used.has(`${id}@${n}`)) n++;
    used.add(`${id}@${n}`);
    return `${id}@${n}`;
  };
  value.messages.forEach((item, index) => {
    const line = index + 1;
    if (!isOpenCodeMessage(item)) {
      if (strict) throw new SessionError(line, `message ${index} is not {info:{id, role}, parts}`);
      warnings.push({ line, message: `message ${index} is not {info:{id, role}, parts}; skipped` });
      return;
    }
    const { info, parts } = item as { info: Record<string, unknown> & { id: string; role: string }; parts: unknown[] };
    const id = unique(info.id, line);
    const messages = openCodeMessages(info, parts, line, toolCallIds, id).map((message) => (message.id === id ? message : { ...message, id: unique(message.id, line) }));
    entries.push({ id, parentId: previousId, line, type: info.role, messages });
    previousId = id;
  });
  if (repeated > 0) warnings.push({ line: 0, message: `${repeated} message or part ids repeat an earlier one (a redacted export?): each is named by its position (id@line)` });
  const info = value.info as Record<string, unknown>;
  return {
    format: "opencode",
    formatVersion: typeof info.version === "string" ? info.version : undefined,
    header: info,
    entries,
    warnings,
    toolCallIds,
    offTreeRecords: {},
    defaultLeafId: previousId,
    ...replayedHistory(contextItems),
    usage: openCodeUsage,
  };
}

function openCodeMessages(info: Record<string, unknown> & { id: string; role: string }, parts: unknown[], line: number, toolCallIds: Set<string>, id = info.id): Message[] {
  const role = info.role === "user" ? "user" : info.role === "assistant" ? (info.summary === true ? "summary" : "assistant") : "custom";
  const out: Message[] = [];
  let blocks: Block[] = [];
  let hidden: unknown[] = [];
  let results: Message[] = [];
  let step = 0;
  const flush = () => {
    if (blocks.length === 0 && hidden.length === 0 && results.length === 0) return;
    out.push({ id: step === 0 ? id : `${id}#s${step}`, role, meta: { ...info, parts: hidden }, blocks, line }, ...results);
    step++;
    blocks = [];
    hidden = [];
    results = [];
  };
  for (const part of parts) {
    if (!isRecord(part) || typeof part.type !== "string") {
      blocks.push({ type: "raw", value: part });
      continue;
    }
    if (part.type === "step-start" && role !== "user" && (blocks.length > 0 || results.length > 0)) flush();
    if (NOT_FOR_THE_MODEL.has(part.type)) {
      hidden.push(part);
      continue;
    }
    if ((part.type === "text" || part.type === "reasoning") && typeof part.text === "string") {
      blocks.push(withExtra({ type: part.type === "text" ? "text" : "thinking", text: part.text }, extraFields(part, ["text"])));
    } else if (part.type === "tool" && typeof part.callID === "string" && typeof part.tool === "string" && isRecord(part.state)) {
      toolCallIds.add(part.callID);
      blocks.push(withExtra({ type: "toolCall", id: part.callID, name: part.tool, arguments: part.state.input }, { part: without(part, "state", "callID", "tool") }));
      results.push(toolResult(part as Record<string, unknown> & { callID: string; tool: string; state: Record<string, unknown> }, id, line));
    } else {
      // file, compaction, agent-specific parts: kept whole.
      blocks.push({ type: "raw", value: part });
    }
  }
  flush();
  if (out.length === 0) out.push({ id, role, meta: { ...info, parts: [] }, blocks: [], line });
  return role === "user" ? out.flatMap(splitSynthetic) : out;
}

function isSynthetic(block: Block): boolean {
  return block.type === "text" && block.extra?.synthetic === true;
}

/**
 * OpenCode adds `synthetic` text parts to a user message (the contents of an
 * attached file, "Called the Read tool…"): the model reads them, but the user
 * did not write them. Each run of synthetic parts becomes its own user
 * message `<id>#u<n>` marked `synthetic: true`, so facts taken from what the
 * user wrote never come from them.
 */
function splitSynthetic(message: Message): Message[] {
  if (!message.blocks.some(isSynthetic)) return [message];
  const runs: { synthetic: boolean; blocks: Block[] }[] = [];
  for (const block of message.blocks) {
    // Blocks that are not text (an attached file part) stay with the run they sit in.
    const synthetic = block.type === "text" ? isSynthetic(block) : (runs.at(-1)?.synthetic ?? false);
    const last = runs.at(-1);
    if (last && last.synthetic === synthetic) last.blocks.push(block);
    else runs.push({ synthetic, blocks: [block] });
  }
  return runs.map((run, n) => ({
    ...message,
    id: n === 0 ? message.id : `${message.id}#u${n}`,
    meta: run.synthetic ? { ...message.meta, synthetic: true } : message.meta,
    blocks: run.blocks,
  }));
}

function toolResult(part: Record<string, unknown> & { callID: string; tool: string; state: Record<string, unknown> }, messageId: string, line: number): Message {
  const { state } = part;
  const blocks: Block[] = [];
  if (typeof state.output === "string") blocks.push({ type: "text", text: state.output });
  else if (state.output !== undefined) blocks.push({ type: "raw", value: state.output });
  if (typeof state.error === "string") blocks.push({ type: "text", text: state.error });
  const time = isRecord(state.time) ? state.time : {};
  const meta: Record<string, unknown> = {
    toolCallId: part.callID,
    toolName: part.tool,
    // A tool still running when the session was exported has no outcome yet.
    ...(state.status === "running" || state.status === "pending" ? {} : { isError: state.status === "error" }),
    state: without(state, "input", "output", "error"),
    messageId,
  };
  if (time.compacted !== undefined) meta.prunedAt = time.compacted;
  return { id: typeof part.id === "string" ? part.id : `${messageId}#${part.callID}`, role: "toolResult", meta, blocks, line };
}

function hasCompactionPart(message: Message): boolean {
  return message.role === "user" && message.blocks.some((b) => b.type === "raw" && isRecord(b.value) && b.value.type === "compaction");
}

/** A pruned output's placeholder: the id of the output it replaces, and this. */
const PRUNED_SUFFIX = "~pruned";

function contextItems(path: Entry[]): (Message | CompactionStep)[] {
  const items: (Message | CompactionStep)[] = [];
  // Prunes, by the time they ran: each clears every output pruned at that moment.
  const prunes = new Map<number, Set<string>>();
  for (const entry of path) {
    for (const m of entry.messages) {
      const at = m.meta.prunedAt;
      if (typeof at !== "number") continue;
      const ids = prunes.get(at) ?? new Set<string>();
      ids.add(m.id);
      prunes.set(at, ids);
    }
  }
  const pending = [...prunes.entries()].sort((a, b) => a[0] - b[0]);
  let compactionRequest: Message[] = [];

  for (const entry of path) {
    const created = createdAt(entry);
    while (pending.length > 0 && created !== null && pending[0]![0] < created) items.push(pruneStep(pending.shift()!, entry));
    const first = entry.messages[0];
    if (first && hasCompactionPart(first)) {
      compactionRequest = entry.messages;
      continue;
    }
    if (first?.role === "summary") {
      const request = compactionRequest;
      const part = request[0]?.blocks.find((b) => b.type === "raw" && isRecord(b.value) && b.value.type === "compaction");
      const auto = part?.type === "raw" && isRecord(part.value) ? part.value.auto : undefined;
      const tokens = first.meta.tokens;
      const cache = isRecord(tokens) && isRecord(tokens.cache) ? tokens.cache : {};
      items.push({
        line: entry.line,
        entryId: entry.id,
        timestamp: created !== null ? new Date(created).toISOString() : undefined,
        kind: "opencode-compaction",
        trigger: auto === true ? "auto" : auto === false ? "manual" : null,
        // What the summarising call read: the context being compacted.
        tokensBefore: isRecord(tokens) && typeof tokens.input === "number" ? tokens.input + num(cache.read) + num(cache.write) : null,
        tokensAfter: null,
        summary: entry.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === "text" ? [b.text] : []))).join("\n") || null,
        apply: () => [...request, ...entry.messages],
      });
      compactionRequest = [];
      continue;
    }
    items.push(...compactionRequest, ...entry.messages);
    compactionRequest = [];
  }
  items.push(...compactionRequest);
  const last = path[path.length - 1];
  for (const prune of pending) if (last) items.push(pruneStep(prune, last));
  return items;
}

function pruneStep([at, ids]: [number, Set<string>], entry: Entry): CompactionStep {
  return {
    line: entry.line,
    entryId: entry.id,
    timestamp: new Date(at).toISOString(),
    kind: "opencode-prune",
    trigger: "auto",
    tokensBefore: null,
    tokensAfter: null,
    summary: null,
    // The placeholder is another message than the output it stands for (its own id): the output is
    // dropped at this prune, the placeholder is what the model reads from then on.
    apply: (before) =>
      before.map((m) => (ids.has(m.id) ? { ...m, id: `${m.id}${PRUNED_SUFFIX}`, meta: { ...m.meta, opencodePruned: true }, blocks: [{ type: "text", text: PRUNED_OUTPUT }] } : m)),
  };
}

function createdAt(entry: Entry): number | null {
  const time = entry.messages[0]?.meta.time;
  return isRecord(time) && typeof time.created === "number" ? time.created : null;
}

function num(value: unknown): number {
  return typeof value === "number" ? value : 0;
}

/** One turn per model call: each step-finish's tokens (the message's own total when it has no steps). */
function openCodeUsage(path: Entry[]): UsageSeries {
  const turns: UsageSeries["turns"] = [];
  const push = (tokens: unknown, line: number, messageId: string) => {
    if (!isRecord(tokens) || typeof tokens.input !== "number") return;
    const cache = isRecord(tokens.cache) ? tokens.cache : {};
    const input = tokens.input;
    turns.push({
      line,
      messageId,
      input,
      output: num(tokens.output) + num(tokens.reasoning),
      cacheRead: num(cache.read),
      cacheWrite: num(cache.write),
      contextTokens: input + num(cache.read) + num(cache.write),
    });
  };
  for (const entry of path) {
    let stepped = false;
    for (const message of entry.messages) {
      const parts = Array.isArray(message.meta.parts) ? message.meta.parts : [];
      for (const part of parts)
        if (isRecord(part) && part.type === "step-finish") {
          push(part.tokens, entry.line, message.id);
          stepped = true;
        }
    }
    const first = entry.messages[0];
    if (!stepped && first && first.role !== "user") push(first.meta.tokens, entry.line, first.id);
  }
  return { turns, contextWindow: null, notes: ["output includes reasoning tokens"] };
}
