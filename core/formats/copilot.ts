/**
 * GitHub Copilot CLI `events.jsonl`: one event a line, `{type, id, parentId,
 * timestamp, data, agentId?}`. The file's parentId only names the event
 * written before (a straight chain), so the tree is rebuilt by who speaks:
 * the main agent's events chain among themselves, and each subagent's events
 * (those with `agentId`) form a side branch that opens from the
 * `subagent.started` event of its call. The source parentId stays in meta.
 *
 * What the model sees: user.message, system.message, assistant.message (its
 * reasoningText as thinking, content, toolRequests as tool calls),
 * assistant.reasoning, and tool.execution_complete as the call's result.
 * `session.compaction_complete` replaces the conversation the main agent had
 * sent before the matching `compaction_start` with its summary; the system
 * prompt and what arrived while the compaction ran are kept (Copilot compacts
 * in the background). `session.truncation` drops the oldest messages to fit
 * the window, without a summary. A new system.message replaces the previous one.
 */
import type { Block, Entry, Message, UsageSeries } from "../model.ts";
import type { JsonLine } from "../jsonl.ts";
import { SessionError } from "../model.ts";
import { extraFields, isRecord, messagesOf, parsedArguments, without, withExtra, type ReaderOutput } from "./common.ts";
import { replayedHistory, type CompactionStep, type ContextItem } from "../compactions/common.ts";

/** Event type families of Copilot CLI; a record is Copilot's when its type is `<family>.<name>` with a data object. */
const EVENT_FAMILIES = new Set(["session", "user", "assistant", "tool", "hook", "subagent", "system", "permission", "skill", "abort"]);

/** Any event `{type: "<family>.<name>", id, parentId, data}`: the reader keeps families newer than this list. */
function isEvent(value: unknown): value is Record<string, unknown> & { type: string; id: string; data: Record<string, unknown> } {
  return isRecord(value) && typeof value.type === "string" && value.type.indexOf(".") > 0 && typeof value.id === "string" && isRecord(value.data) && "parentId" in value;
}

export function isCopilotEvent(value: unknown): boolean {
  return isEvent(value) && EVENT_FAMILIES.has(value.type.slice(0, value.type.indexOf(".")));
}

/** Required: the first record is an event of a known family and most of the first 20 are events. */
export function looksLikeCopilot(records: JsonLine[]): boolean {
  const head = records.slice(0, 20);
  return head.length > 0 && isCopilotEvent(head[0]!.value) && head.filter((r) => isEvent(r.value)).length * 2 > head.length;
}

export function readCopilot(records: JsonLine[], strict: boolean): ReaderOutput {
  const warnings: ReaderOutput["warnings"] = [];
  const toolCallIds = new Set<string>();
  const entries: Entry[] = [];
  const toolNames = new Map<string, string>();
  /** The last entry of the main chain and of each subagent's chain. */
  let mainTip: string | null = null;
  const agentTips = new Map<string, string>();
  const agentStarts = new Map<string, string>();
  let header: unknown;
  let formatVersion: string | undefined;
  const seen = new Set<string>();

  for (const { line, value } of records) {
    if (!isEvent(value)) {
      if (strict) throw new SessionError(line, 'a Copilot CLI event must be an object with "type", "id", "parentId" and "data"');
      warnings.push({ line, message: "not a Copilot CLI event; skipped" });
      continue;
    }
    const record = value;
    if (seen.has(record.id)) {
      if (strict) throw new SessionError(line, `duplicate event id "${record.id}"`);
      warnings.push({ line, message: `duplicate event id "${record.id}"; skipped` });
      continue;
    }
    seen.add(record.id);
    const { type, data } = record;
    if (type === "session.start") {
      header ??= data;
      if (typeof data.copilotVersion === "string") formatVersion ??= data.copilotVersion;
    }
    if (type === "tool.execution_start" && typeof data.toolCallId === "string" && typeof data.toolName === "string") {
      toolNames.set(data.toolCallId, data.toolName);
    }
    // subagent.started/completed are the main agent's own events (they carry the agentId they name).
    const agentId = typeof record.agentId === "string" && !type.startsWith("subagent.") ? record.agentId : null;
    let parentId: string | null;
    if (agentId === null) parentId = mainTip;
    else parentId = agentTips.get(agentId) ?? agentStarts.get(agentId) ?? mainTip;
    const entry: Entry = { id: record.id, parentId, line, type, messages: copilotMessages(record, line, toolCallIds, toolNames) };
    if (agentId !== null) entry.sidechain = true;
    if (entry.messages.length === 0) entry.data = record;
    entries.push(entry);
    if (agentId === null) mainTip = record.id;
    else agentTips.set(agentId, record.id);
    if (type === "subagent.started" && typeof record.agentId === "string") agentStarts.set(record.agentId, record.id);
  }

  return {
    format: "copilot",
    formatVersion,
    header,
    entries,
    warnings,
    toolCallIds,
    offTreeRecords: {},
    defaultLeafId: mainTip,
    branchMessages: (path) => messagesOf(path),
    ...replayedHistory(contextItems),
    usage: copilotUsage,
  };
}

function copilotMessages(
  record: Record<string, unknown> & { type: string; id: string; data: Record<string, unknown> },
  line: number,
  toolCallIds: Set<string>,
  toolNames: Map<string, string>,
): Message[] {
  const { data, id } = record;
  const event = without(record, "data");
  const text = (value: unknown): Block[] => (typeof value === "string" && value !== "" ? [{ type: "text", text: value }] : []);
  switch (record.type) {
    case "user.message": {
      // `content` is what the user typed; `transformedContent` (kept in meta) is it wrapped in the
      // harness's reminders. A message the harness sent itself (`source: "system"`, nothing typed)
      // is read from transformedContent and marked synthetic, like OpenCode's injected parts.
      const injected = data.content === "" && data.source === "system" && typeof data.transformedContent === "string";
      const meta: Record<string, unknown> = { ...without(data, "content"), event };
      if (injected) meta.synthetic = true;
      return [{ id, role: "user", meta, blocks: text(injected ? data.transformedContent : data.content), line }];
    }
    case "system.message":
      return [{ id, role: "system", meta: { ...without(data, "content"), event }, blocks: text(data.content), line }];
    case "assistant.reasoning":
      return [
        { id, role: "assistant", meta: { ...without(data, "content"), event }, blocks: typeof data.content === "string" ? [{ type: "thinking", text: data.content }] : [], line },
      ];
    case "assistant.message": {
      const blocks: Block[] = [];
      if (typeof data.reasoningText === "string") {
        // The opaque reasoning travels with its readable text, so archiving one archives both.
        blocks.push(withExtra({ type: "thinking", text: data.reasoningText }, data.reasoningOpaque !== undefined ? { reasoningOpaque: data.reasoningOpaque } : undefined));
      }
      blocks.push(...text(data.content));
      if (Array.isArray(data.toolRequests)) {
        for (const request of data.toolRequests) {
          if (isRecord(request) && typeof request.toolCallId === "string" && typeof request.name === "string") {
            toolCallIds.add(request.toolCallId);
            // The arguments are the JSON string the model wrote: parsed, so the checkride reads a command or a patch from them.
            const args = parsedArguments(request.arguments);
            const extra = extraFields(request, ["toolCallId", "name", "arguments"]);
            blocks.push(withExtra({ type: "toolCall", id: request.toolCallId, name: request.name, arguments: args.value }, args.extra ? { ...extra, ...args.extra } : extra));
          } else blocks.push({ type: "raw", value: request });
        }
      }
      return [{ id, role: "assistant", meta: { ...without(data, "content", "toolRequests", "reasoningText", "reasoningOpaque"), event }, blocks, line }];
    }
    case "tool.execution_complete": {
      const callId = typeof data.toolCallId === "string" ? data.toolCallId : "";
      const blocks: Block[] = [];
      const result = data.result;
      if (isRecord(result) && typeof result.content === "string") blocks.push(withExtra({ type: "text", text: result.content }, extraFields(result, ["content"])));
      else if (result !== undefined) blocks.push({ type: "raw", value: result });
      const error = data.error;
      if (isRecord(error) && typeof error.message === "string") blocks.push(withExtra({ type: "text", text: error.message }, extraFields(error, ["message"])));
      else if (error !== undefined) blocks.push({ type: "raw", value: error });
      // toolName and isError are named from the start event and `success`, so a result reads on its own.
      const meta: Record<string, unknown> = { ...without(data, "result", "error"), event, toolName: toolNames.get(callId), isError: data.success === false };
      return [{ id, role: "toolResult", meta, blocks, line }];
    }
    case "session.compaction_complete":
      if (typeof data.summaryContent !== "string") return [];
      return [{ id, role: "summary", meta: { ...without(data, "summaryContent"), event }, blocks: [{ type: "text", text: data.summaryContent }], line }];
    default:
      return [];
  }
}

/** The branch as the model received it: messages, and each successful compaction as a step. */
function contextItems(path: Entry[]): ContextItem[] {
  const items: ContextItem[] = [];
  /** How many messages had been sent when the last compaction_start was written. */
  let sentAtStart: number | null = null;
  let startFigures: Record<string, unknown> | null = null;
  for (const entry of path) {
    if (entry.type === "session.compaction_start") {
      sentAtStart = items.length;
      startFigures = isRecord(entry.data) && isRecord(entry.data.data) ? entry.data.data : null;
      continue;
    }
    if (entry.type === "session.truncation") {
      const step = truncationStep(entry);
      if (step) items.push(step);
      continue;
    }
    if (entry.type !== "session.compaction_complete") {
      for (const message of entry.messages) {
        // Copilot writes its whole system prompt again with each interaction (130 KB a time in the
        // real file); the new one replaces the old, as compaction_start counts systemTokens once.
        items.push(message.role === "system" ? { message, replaces: (earlier) => earlier.role === "system" } : message);
      }
      continue;
    }
    // A failed compaction (or one without a summary) changed nothing the model sees.
    const summary = entry.messages[0];
    if (!summary || summary.meta.success === false) continue;
    const data = summary.meta;
    const event = isRecord(data.event) ? data.event : {};
    const cutAt = sentAtStart ?? items.length;
    const arrivedDuring = items.slice(cutAt).flatMap((item) => ("replaces" in item ? [item.message] : "apply" in item ? [] : [item]));
    const figures = startFigures;
    items.push({
      line: entry.line,
      entryId: entry.id,
      timestamp: typeof event.timestamp === "string" ? event.timestamp : undefined,
      kind: "copilot-compaction",
      // Copilot starts a compaction itself when the window fills; the file names no manual trigger here.
      trigger: null,
      tokensBefore: typeof data.preCompactionTokens === "number" ? data.preCompactionTokens : sumFigures(figures),
      tokensAfter: null,
      summary: summary.blocks[0]?.type === "text" ? summary.blocks[0].text : null,
      // The system prompt is not conversation: it stays, ahead of the summary.
      apply: (before) => [...before.filter((m) => m.role === "system" && !arrivedDuring.includes(m)), summary, ...before.filter((m) => arrivedDuring.includes(m))],
    });
    // The summary is part of the step's result, not a message appended after it.
    sentAtStart = null;
    startFigures = null;
  }
  return items;
}

/**
 * `session.truncation {tokenLimit, preTruncationTokensInMessages,
 * postTruncationTokensInMessages, preTruncationMessagesLength,
 * postTruncationMessagesLength, messagesRemovedDuringTruncation,
 * tokensRemovedDuringTruncation, performedBy}` (the Copilot SDK's event
 * schema). The event states how many messages went, not which: the oldest
 * that many after the system prompt are taken, as a truncator that keeps the
 * newest turns does. A truncation that removed nothing changed nothing.
 */
function truncationStep(entry: Entry): CompactionStep | null {
  const record = isRecord(entry.data) ? entry.data : {};
  const data = isRecord(record.data) ? record.data : {};
  const removed = typeof data.messagesRemovedDuringTruncation === "number" ? data.messagesRemovedDuringTruncation : 0;
  if (!(removed > 0)) return null;
  const figure = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);
  return {
    line: entry.line,
    entryId: entry.id,
    timestamp: typeof record.timestamp === "string" ? record.timestamp : undefined,
    kind: "copilot-truncation",
    trigger: null,
    tokensBefore: figure(data.preTruncationTokensInMessages),
    tokensAfter: figure(data.postTruncationTokensInMessages),
    summary: null,
    apply: (before) => {
      let left = removed;
      return before.filter((message) => message.role === "system" || left-- <= 0);
    },
  };
}

function sumFigures(figures: Record<string, unknown> | null): number | null {
  if (!figures) return null;
  const parts = [figures.systemTokens, figures.conversationTokens, figures.toolDefinitionsTokens];
  return parts.every((n) => typeof n === "number") ? (parts as number[]).reduce((a, b) => a + b, 0) : null;
}

/**
 * Copilot CLI writes only `outputTokens` per assistant message; input and
 * context sizes appear only at compaction_start and shutdown. The series says
 * so instead of inventing the missing figures.
 */
function copilotUsage(path: Entry[]): UsageSeries {
  const turns: UsageSeries["turns"] = [];
  for (const entry of path) {
    if (entry.type === "assistant.message") {
      const message = entry.messages[0];
      const output = message?.meta.outputTokens;
      if (message && typeof output === "number") turns.push({ line: entry.line, messageId: message.id, input: 0, output, cacheRead: 0, cacheWrite: 0, contextTokens: 0 });
    } else if (entry.type === "session.compaction_start") {
      const context = sumFigures(isRecord(entry.data) && isRecord(entry.data.data) ? entry.data.data : null);
      if (context !== null) turns.push({ line: entry.line, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, contextTokens: context });
    }
  }
  return {
    turns,
    contextWindow: null,
    notes: [
      "Copilot CLI records only output tokens per assistant message (input, cache and context are 0 there: not recorded)",
      "context size is recorded only when a compaction starts (system + conversation + tool definitions)",
    ],
  };
}
