/**
 * Gemini CLI chats, both forms: one JSON `{sessionId, projectHash, startTime,
 * lastUpdated, kind, messages}` (older releases), or JSON Lines with that
 * header on line 1 and then one record a line (newer). A JSONL record is a
 * message `{id, type, content, …}` (the same id written again is an update:
 * the last line wins), `{$set: {…}}` (header fields), `{$rewindTo: id}` (that
 * message and everything after it leave the history; what follows grows a
 * new branch), or the header written again (a writer that started over on
 * the same file: its fields update the header).
 *
 * `$set.messages` is the whole active history written again, and Gemini CLI
 * writes it far more often than it compresses: on a new chat (the
 * `<session_context>` turn alone), on a resume, after a rewind, a masking or
 * a truncation. Only a list holding a `<state_snapshot>` turn it has not
 * held before is a compression; any other is a restart of the running
 * context, recorded as no compaction, whose messages already read are the
 * same messages (by Gemini id) and whose new ones join the branch.
 *
 * Messages keep their Gemini ids. A tool call's result becomes its own
 * toolResult message `<id>#r<n>`; a compression's new history is read as
 * messages `L<line>.r<n>` (like Codex replacement_history) and its snapshot
 * turn is shown on the branch as the compression's summary.
 */
import type { Block, Entry, Message, UsageSeries } from "../model.ts";
import type { JsonLine } from "../jsonl.ts";
import { SessionError } from "../model.ts";
import { countOffTree, extraFields, isRecord, without, withExtra, type ReaderOutput } from "./common.ts";
import { replayedHistory, type ContextItem } from "../compactions/common.ts";

const SNAPSHOT = "<state_snapshot>";

function isGeminiHeader(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && typeof value.sessionId === "string" && typeof value.projectHash === "string" && !("type" in value) && !("uuid" in value);
}

/** Any `{id, type}`: the header fields are what make a file Gemini's; newer message types are read as custom. */
function isGeminiMessage(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && typeof value.id === "string" && typeof value.type === "string";
}

export function looksLikeGeminiJson(value: unknown): boolean {
  return isGeminiHeader(value) && Array.isArray(value.messages) && value.messages.every(isGeminiMessage);
}

/** The header on line 1 (it may already hold messages), then records. */
export function looksLikeGeminiLines(records: JsonLine[]): boolean {
  return records.length > 0 && isGeminiHeader(records[0]!.value);
}

export function readGeminiJson(value: unknown, strict: boolean): ReaderOutput {
  if (!isRecord(value) || !Array.isArray(value.messages)) throw new SessionError(1, "a Gemini CLI session is {sessionId, projectHash, messages:[…]}");
  const reader = new GeminiReader(without(value, "messages"), strict);
  value.messages.forEach((message, index) => reader.add({ line: index + 1, value: message }));
  return reader.finish("json");
}

export function readGeminiLines(records: JsonLine[], strict: boolean): ReaderOutput {
  const first = records[0];
  if (!first || !isGeminiHeader(first.value)) throw new SessionError(first?.line ?? 1, "a Gemini CLI JSONL chat starts with a {sessionId, projectHash} header");
  const reader = new GeminiReader(without(first.value, "messages"), strict);
  if (Array.isArray(first.value.messages)) for (const message of first.value.messages) reader.add({ line: first.line, value: message });
  for (let i = 1; i < records.length; i++) reader.add(records[i]!);
  return reader.finish("jsonl");
}

class GeminiReader {
  private readonly entries: Entry[] = [];
  private readonly byId = new Map<string, Entry>();
  private readonly warnings: ReaderOutput["warnings"] = [];
  private readonly toolCallIds = new Set<string>();
  private readonly offTreeRecords: Record<string, number> = {};
  private readonly headerUpdates: { line: number; set: Record<string, unknown> }[] = [];
  /** The `<state_snapshot>` texts of the compressions read: the same snapshot set again is a restart, not a new compression. */
  private readonly snapshots = new Set<string>();
  /** Lines where the history was written again without a compression (shown in the header as $restartLines). */
  private readonly restartLines: number[] = [];
  /** A compression's copies by their Gemini id. */
  private readonly copies = new Map<string, Message>();
  private tip: string | null = null;

  constructor(
    private readonly header: Record<string, unknown>,
    private readonly strict: boolean,
  ) {}

  add({ line, value }: JsonLine): void {
    if (isRecord(value) && isRecord(value.$set)) return this.set(line, value.$set);
    // The header again: its fields update the header (the first startTime stays), its messages restart the context.
    if (isGeminiHeader(value)) return this.set(line, without(value, "startTime"));
    if (isRecord(value) && typeof value.$rewindTo === "string") return this.rewind(line, value.$rewindTo);
    if (!isRecord(value) || typeof value.id !== "string" || typeof value.type !== "string") {
      if (this.strict) throw new SessionError(line, "a Gemini CLI record must be a message {id, type}, {$set} or {$rewindTo}");
      this.warnings.push({ line, message: "not a Gemini CLI record; skipped" });
      return;
    }
    const existing = this.byId.get(value.id);
    if (existing) {
      // An update of a message already written: the last line wins, the message keeps its place.
      existing.messages = geminiMessages(value, value.id, line, this.toolCallIds);
      existing.data = { updatedAtLine: line };
      return;
    }
    this.push({ id: value.id, parentId: this.tip, line, type: value.type, messages: geminiMessages(value, value.id, line, this.toolCallIds) });
  }

  private push(entry: Entry): void {
    this.entries.push(entry);
    this.byId.set(entry.id, entry);
    this.tip = entry.id;
  }

  private set(line: number, set: Record<string, unknown>): void {
    const fields = without(set, "messages");
    if (Object.keys(fields).length > 0) this.headerUpdates.push({ line, set: fields });
    if (!Array.isArray(set.messages)) return;
    const snapshot = set.messages.map(snapshotTextOf).find((text) => text !== undefined);
    if (snapshot === undefined || this.snapshots.has(snapshot)) return this.restart(line, set.messages);
    this.snapshots.add(snapshot);
    this.compression(line, set.messages);
  }

  /**
   * The history written again, no compression: the context restarts from the
   * list. A message already read (an entry, or a compression's copy) is that
   * message, as it now stands; one never read joins the branch after the restart.
   */
  private restart(line: number, list: unknown[]): void {
    const kept: (Entry | Message)[] = [];
    const fresh: Record<string, unknown>[] = [];
    let counter = 0;
    const nextId = () => `L${line}.r${counter++}`;
    for (const item of list) {
      if (!isGeminiMessage(item)) continue;
      const id = item.id as string;
      const known = this.byId.get(id) ?? this.copies.get(id);
      if (!known) {
        fresh.push(item);
        continue;
      }
      // Written again as it was: the message already read. Changed (a tool output masked, a result
      // truncated): the model is sent the new text, read here as a copy; the original stays on the branch.
      const now = geminiMessages(item, id, line, this.toolCallIds, nextId);
      const before = "blocks" in known ? [known] : known.messages;
      if (sameContent(before, now)) kept.push(known);
      else kept.push(...now.map((message, i) => ({ ...message, id: i === 0 ? nextId() : message.id })));
    }
    this.restartLines.push(line);
    this.push({ id: `L${line}`, parentId: this.tip, line, type: "restart", messages: [], data: { kept } });
    for (const item of fresh) this.add({ line, value: item });
  }

  /** A new active history: the compression. Its messages are read once here, under ids of this line. */
  private compression(line: number, list: unknown[]): void {
    const id = `L${line}`;
    const replacement: Message[] = [];
    let counter = 0;
    const nextId = () => `${id}.r${counter++}`;
    for (const item of list) {
      if (!isRecord(item)) continue;
      const copy = geminiMessages(item, nextId(), line, this.toolCallIds, nextId);
      replacement.push(...copy);
      // A later restart naming this Gemini id means this copy.
      if (typeof item.id === "string") for (const message of copy) if (message.meta.id === item.id) this.copies.set(item.id, message);
    }
    const snapshot = replacement.find((m) => m.role === "summary");
    const messages: Message[] = snapshot ? [{ ...snapshot, id }] : [];
    this.push({ id, parentId: this.tip, line, type: "compression", messages, data: { replacement } });
  }

  private rewind(line: number, targetId: string): void {
    countOffTree(this.offTreeRecords, "$rewindTo");
    const target = this.byId.get(targetId);
    if (!target) {
      if (this.strict) throw new SessionError(line, `$rewindTo names no message ("${targetId}")`);
      this.warnings.push({ line, message: `$rewindTo names no message ("${targetId}"); ignored` });
      return;
    }
    // The target and everything after it stay in the file on their own branch.
    this.tip = target.parentId;
  }

  finish(form: "json" | "jsonl"): ReaderOutput {
    let header: Record<string, unknown> = this.header;
    for (const update of this.headerUpdates) header = { ...header, ...update.set };
    return {
      format: "gemini",
      formatVersion: form,
      header: {
        ...header,
        ...(this.headerUpdates.length > 0 ? { $setLines: this.headerUpdates.map((u) => u.line) } : {}),
        ...(this.restartLines.length > 0 ? { $restartLines: this.restartLines } : {}),
      },
      entries: this.entries,
      warnings: this.warnings,
      toolCallIds: this.toolCallIds,
      offTreeRecords: this.offTreeRecords,
      defaultLeafId: this.tip,
      ...replayedHistory(contextItems, sourceIdentity),
      usage: geminiUsage,
    };
  }
}

/** A Gemini record → its message, then one toolResult message per call that has a result. */
function geminiMessages(record: Record<string, unknown>, id: string, line: number, toolCallIds: Set<string>, nextId?: () => string): Message[] {
  const meta = without(record, "content", "toolCalls", "thoughts");
  if (record.type === "user") {
    const blocks = partsBlocks(record.content);
    const isSnapshot = blocks.some((b) => b.type === "text" && b.text.includes(SNAPSHOT));
    return [{ id, role: isSnapshot ? "summary" : "user", meta, blocks, line }];
  }
  if (record.type !== "gemini") return [{ id, role: "custom", meta, blocks: partsBlocks(record.content), line }];
  const blocks: Block[] = [];
  if (Array.isArray(record.thoughts)) {
    for (const thought of record.thoughts) {
      if (isRecord(thought) && typeof thought.description === "string")
        blocks.push(withExtra({ type: "thinking", text: thought.description }, extraFields(thought, ["description"])));
      else blocks.push({ type: "raw", value: thought });
    }
  }
  blocks.push(...partsBlocks(record.content));
  const results: Message[] = [];
  if (Array.isArray(record.toolCalls)) {
    for (const call of record.toolCalls) {
      if (!isRecord(call) || typeof call.id !== "string" || typeof call.name !== "string") {
        blocks.push({ type: "raw", value: call });
        continue;
      }
      toolCallIds.add(call.id);
      blocks.push(withExtra({ type: "toolCall", id: call.id, name: call.name, arguments: call.args }, extraFields(call, ["id", "name", "args", "result"])));
      if (call.result === undefined) continue;
      const resultId = nextId ? nextId() : `${id}#r${results.length}`;
      const resultMeta = { toolCallId: call.id, toolName: call.name, status: call.status, isError: call.status === "error" || call.status === "cancelled", messageId: record.id };
      results.push(markSavedToolOutput({ id: resultId, role: "toolResult", meta: resultMeta, blocks: resultBlocks(call.result), line }));
    }
  }
  const message: Message = { id, role: "assistant", meta, blocks, line };
  return [message, ...results];
}

/** Gemini content: a string, or parts `[{text} | {inlineData} | …]`. */
function partsBlocks(content: unknown): Block[] {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  if (content === undefined || content === null) return [];
  const parts = Array.isArray(content) ? content : [content];
  return parts.map((part): Block => {
    if (isRecord(part) && typeof part.text === "string") return withExtra({ type: "text", text: part.text }, extraFields(part, ["text"]));
    if (isRecord(part) && isRecord(part.inlineData) && typeof part.inlineData.data === "string" && typeof part.inlineData.mimeType === "string") {
      return { type: "image", mimeType: part.inlineData.mimeType, data: part.inlineData.data };
    }
    return { type: "raw", value: part };
  });
}

/** A call's result is `[{functionResponse: {id, name, response: {output}}}]`: the output is its text. */
function resultBlocks(result: unknown): Block[] {
  const parts = Array.isArray(result) ? result : [result];
  return parts.map((part): Block => {
    const response = isRecord(part) && isRecord(part.functionResponse) ? part.functionResponse : null;
    if (response && isRecord(response.response) && typeof response.response.output === "string") {
      return withExtra(
        { type: "text", text: response.response.output },
        { functionResponse: { ...without(response, "response"), response: without(response.response, "output") } },
      );
    }
    return { type: "raw", value: part };
  });
}

/**
 * Gemini CLI moves a very large tool output to a sidecar
 * `<project temp>/tool-outputs/session-<sessionId>/<tool>_<callId>.txt` and
 * sends the model a preview that names it: "Output too large. Showing first N
 * and last M characters. For full output see: <path>" then head, an
 * "[K characters omitted]" line and tail (older releases: "Showing the last N
 * of M lines." or no figures, then the tail). Like Claude Code's
 * <persisted-output>, the preview is the agent's own omission marker: the text
 * stays verbatim and meta.agentOmission says what it is and where the rest went.
 */
function markSavedToolOutput(message: Message): Message {
  const first = message.blocks.find((b) => b.type === "text");
  if (first?.type === "text" && first.text.startsWith(MASKED_OPEN)) return markMaskedToolOutput(message, first.text);
  if (first?.type !== "text" || !first.text.startsWith("Output too large.")) return message;
  const firstLine = first.text.split("\n", 1)[0]!;
  const savedTo = /For full output see: (.+)$/.exec(firstLine)?.[1]?.trim();
  if (!savedTo) return message;
  const shown = /Showing (.+?)\. For full output/.exec(firstLine)?.[1];
  const omitted = /\.\.\. \[([\d,.\s]+) characters omitted\] \.\.\./.exec(first.text)?.[1];
  const omittedChars = omitted === undefined ? undefined : Number(omitted.replace(/[^\d]/g, ""));
  const agentOmission = {
    marker: "gemini-tool-output",
    savedTo,
    ...(shown ? { shown } : {}),
    ...(omittedChars !== undefined && Number.isFinite(omittedChars) ? { omittedChars } : {}),
  };
  return { ...message, meta: { ...message.meta, agentOmission } };
}

const MASKED_OPEN = "<tool_output_masked>";

/**
 * Newer releases mask old tool outputs in place once they hold many tokens:
 * the result becomes `<tool_output_masked>` with a preview (the first and
 * last lines, "... [N lines omitted] ...") and "Output too large. Full output
 * available at: <path>", the full output saved to that sidecar. The agent's
 * own marker, like the preview above: verbatim, with meta.agentOmission.
 */
function markMaskedToolOutput(message: Message, text: string): Message {
  const savedTo = /Output too large\. Full output available at: (.+)$/m.exec(text)?.[1]?.trim();
  if (!savedTo) return message;
  const omitted = /\.\.\. \[(\d+) lines omitted\] \.\.\./.exec(text)?.[1];
  const agentOmission = { marker: "gemini-masked-tool-output", savedTo, ...(omitted ? { omittedLines: Number(omitted) } : {}) };
  return { ...message, meta: { ...message.meta, agentOmission } };
}

/** Gemini's own id survives a compression's copy: that is how a kept message is recognised. */
function sourceIdentity(message: Message): string {
  if (message.role === "toolResult" && typeof message.meta.toolCallId === "string") return `call:${message.meta.toolCallId}`;
  return typeof message.meta.id === "string" ? `msg:${message.meta.id}` : message.id;
}

/** The text of a `<state_snapshot>` user turn of a written history, if the item is one. */
function snapshotTextOf(item: unknown): string | undefined {
  if (!isRecord(item) || item.type !== "user") return undefined;
  const text = partsBlocks(item.content)
    .flatMap((b) => (b.type === "text" ? [b.text] : []))
    .join("\n");
  return text.includes(SNAPSHOT) ? text : undefined;
}

/** The same messages by what the model is sent: roles and blocks (not timestamps or ids). */
function sameContent(a: readonly Message[], b: readonly Message[]): boolean {
  return a.length === b.length && a.every((m, i) => m.role === b[i]!.role && JSON.stringify(m.blocks) === JSON.stringify(b[i]!.blocks));
}

/** What a restart keeps, as the messages stand now (an entry updated later is read as its last line). */
function keptMessages(kept: readonly (Entry | Message)[]): Message[] {
  return kept.flatMap((item) => ("blocks" in item ? [item] : item.messages)).filter((m) => m.role !== "custom");
}

function contextItems(path: Entry[]): ContextItem[] {
  const items: ContextItem[] = [];
  for (const entry of path) {
    if (entry.type === "restart") {
      items.push({ restart: keptMessages((entry.data as { kept: (Entry | Message)[] }).kept) });
      continue;
    }
    if (entry.type === "compression") {
      const replacement = (entry.data as { replacement: Message[] }).replacement.filter((m) => m.role !== "custom");
      const snapshot = entry.messages[0];
      items.push({
        line: entry.line,
        entryId: entry.id,
        kind: "gemini-compression",
        trigger: null,
        tokensBefore: null,
        tokensAfter: null,
        summary: snapshot ? snapshot.blocks.map((b) => (b.type === "text" ? b.text : "")).join("\n") : null,
        apply: () => replacement,
      });
      continue;
    }
    // info / error / warning lines are shown to the user, never sent to the model.
    for (const message of entry.messages) if (message.role !== "custom") items.push(message);
  }
  return items;
}

/**
 * `tokens {input, output, cached, thoughts, tool, total}` per Gemini reply.
 * Gemini's input count already includes the cached part, so it is the
 * context read on that turn.
 */
function geminiUsage(path: Entry[]): UsageSeries {
  const turns: UsageSeries["turns"] = [];
  for (const entry of path) {
    const message = entry.messages[0];
    const tokens = message?.role === "assistant" ? message.meta.tokens : undefined;
    if (!isRecord(tokens) || typeof tokens.input !== "number") continue;
    const num = (v: unknown) => (typeof v === "number" ? v : 0);
    turns.push({
      line: entry.line,
      messageId: message!.id,
      input: tokens.input - num(tokens.cached),
      output: num(tokens.output) + num(tokens.thoughts),
      cacheRead: num(tokens.cached),
      cacheWrite: 0,
      contextTokens: tokens.input,
    });
  }
  return { turns, contextWindow: null, notes: ["Gemini's input includes its cached tokens: input here is input − cached; output includes thoughts"] };
}
