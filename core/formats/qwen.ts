/**
 * Qwen Code chats (`~/.qwen/…/chats/<sessionId>.jsonl`; the recorder is
 * packages/core/src/services/chatRecordingService.ts in QwenLM/qwen-code, a
 * fork of Gemini CLI that records like Claude Code): one record a line,
 * `{uuid, parentUuid, sessionId, timestamp, type, subtype?, cwd, version,
 * message?, usageMetadata?, model?, contextWindowSize?, systemPayload?}`, a
 * tree by `parentUuid`. `message` is the Gemini API's Content `{role,
 * parts}`: text (thinking when `thought`), `functionCall {id, name, args}`
 * and, in `tool_result` records, `functionResponse {id, name, response}`.
 *
 * A compression is a `system` record with subtype `chat_compression`: its
 * `systemPayload.compressedHistory` is the whole history the model sees from
 * there (the summary turns and the kept tail), `systemPayload.info` the
 * token figures before and after. Other system records (telemetry, slash
 * commands, titles, file-history snapshots…) are the harness's bookkeeping:
 * counted, not shown as messages.
 */
import type { Block, Entry, Message, UsageSeries } from "../model.ts";
import { SessionError } from "../model.ts";
import type { JsonLine } from "../jsonl.ts";
import { countOffTree, isRecord, without, type ReaderOutput } from "./common.ts";
import { numberOr, replayedHistory, type CompactionStep, type ContextItem } from "../compactions/common.ts";

const QWEN_TYPES = new Set(["user", "assistant", "tool_result", "system"]);

/** A record that is Qwen Code's: its types, a uuid in a session, and Gemini Content (`parts`), not Claude's `content`. */
function isQwenRecord(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value) || typeof value.type !== "string" || !QWEN_TYPES.has(value.type) || typeof value.uuid !== "string" || typeof value.sessionId !== "string") return false;
  if (value.type === "system") return typeof value.subtype === "string";
  // Some releases record a tool's result only as the UI's toolCallResult, without the API message.
  if (value.type === "tool_result" && !isRecord(value.message)) return isRecord(value.toolCallResult);
  return isRecord(value.message) && Array.isArray(value.message.parts);
}

export function looksLikeQwen(records: JsonLine[]): boolean {
  const first = records.slice(0, 20);
  return (
    first.some(({ value }) => isQwenRecord(value) && value.type !== "system") &&
    !first.some(({ value }) => isRecord(value) && isRecord(value.message) && "content" in value.message)
  );
}

export function readQwen(records: JsonLine[], strict: boolean): ReaderOutput {
  const warnings: ReaderOutput["warnings"] = [];
  const offTreeRecords: Record<string, number> = {};
  const toolCallIds = new Set<string>();
  const entries: Entry[] = [];
  let header: Record<string, unknown> | undefined;
  let last: string | null = null;
  for (const { value, line } of records) {
    if (!isQwenRecord(value)) {
      if (strict) throw new SessionError(line, "not a Qwen Code record (uuid, sessionId, type and a Gemini message)");
      warnings.push({ line, message: "not a Qwen Code record; skipped" });
      continue;
    }
    header ??= { sessionId: value.sessionId, cwd: value.cwd, version: value.version };
    const id = value.uuid as string;
    const parentId = typeof value.parentUuid === "string" ? value.parentUuid : null;
    last = id;
    if (value.type === "system") {
      if (value.subtype === "chat_compression") {
        entries.push({ id, parentId, line, type: "compaction", messages: [], data: value });
      } else {
        // Bookkeeping of the harness: the chain still runs through it.
        countOffTree(offTreeRecords, `system:${String(value.subtype)}`);
        entries.push({ id, parentId, line, type: "system", messages: [] });
      }
      continue;
    }
    entries.push({ id, parentId, line, type: "message", messages: qwenMessages(value, id, line, toolCallIds) });
  }
  return {
    format: "qwen",
    formatVersion: typeof header?.version === "string" ? header.version : undefined,
    header,
    entries,
    warnings,
    toolCallIds,
    offTreeRecords,
    defaultLeafId: last,
    ...replayedHistory(contextItems),
    usage: (path) => qwenUsage(path),
  };
}

/** A record's Content as messages: the assistant's parts, or a tool result per functionResponse. */
function qwenMessages(record: Record<string, unknown>, id: string, line: number, toolCallIds: Set<string>): Message[] {
  const meta = without(record, "message");
  if (record.type === "tool_result" && !isRecord(record.message)) {
    const result = record.toolCallResult as Record<string, unknown>;
    const callId = typeof result.callId === "string" ? result.callId : undefined;
    const output = typeof result.result === "string" ? result.result : typeof result.resultDisplay === "string" ? result.resultDisplay : undefined;
    return [
      {
        id,
        role: "toolResult",
        meta: {
          ...meta,
          ...(callId ? { toolCallId: callId } : {}),
          toolName: result.name,
          ...(result.status === "error" ? { isError: true } : result.status === "success" ? { isError: false } : {}),
        },
        blocks: [output !== undefined ? { type: "text", text: output } : { type: "raw", value: result }],
        line,
      },
    ];
  }
  const parts = (record.message as { parts: unknown[] }).parts;
  if (record.type === "tool_result") {
    return parts.map((part, index): Message => {
      const response = isRecord(part) && isRecord(part.functionResponse) ? part.functionResponse : null;
      const callId = typeof response?.id === "string" ? response.id : undefined;
      const status = isRecord(record.toolCallResult) ? record.toolCallResult.status : undefined;
      return {
        id: parts.length === 1 ? id : `${id}#${index}`,
        role: "toolResult",
        meta: {
          ...meta,
          ...(callId ? { toolCallId: callId } : {}),
          toolName: response?.name,
          ...(status === "error" ? { isError: true } : status === "success" ? { isError: false } : {}),
        },
        blocks: [responseBlock(part)],
        line,
      };
    });
  }
  return [{ id, role: record.type === "assistant" ? "assistant" : "user", meta, blocks: partsBlocks(parts, toolCallIds), line }];
}

function partsBlocks(parts: unknown[], toolCallIds?: Set<string>): Block[] {
  return parts.map((part): Block => {
    if (isRecord(part) && typeof part.text === "string") return part.thought === true ? { type: "thinking", text: part.text } : { type: "text", text: part.text };
    if (isRecord(part) && isRecord(part.functionCall) && typeof part.functionCall.name === "string") {
      const id = typeof part.functionCall.id === "string" ? part.functionCall.id : `${part.functionCall.name}`;
      toolCallIds?.add(id);
      return { type: "toolCall", id, name: part.functionCall.name, arguments: part.functionCall.args };
    }
    if (isRecord(part) && isRecord(part.functionResponse)) return responseBlock(part);
    return { type: "raw", value: part };
  });
}

/** A functionResponse's output as text where it has one (`response.output`), else the response itself. */
function responseBlock(part: unknown): Block {
  const response = isRecord(part) && isRecord(part.functionResponse) ? part.functionResponse.response : undefined;
  if (isRecord(response) && typeof response.output === "string") return { type: "text", text: response.output };
  if (isRecord(response) && typeof response.error === "string") return { type: "text", text: response.error };
  return { type: "raw", value: part };
}

function contextItems(path: Entry[]): ContextItem[] {
  const items: ContextItem[] = [];
  for (const entry of path) {
    const raw = entry.data;
    if (entry.type !== "compaction" || !isRecord(raw)) {
      items.push(...entry.messages);
      continue;
    }
    const payload = isRecord(raw.systemPayload) ? raw.systemPayload : {};
    const info = isRecord(payload.info) ? payload.info : {};
    const history = Array.isArray(payload.compressedHistory) ? payload.compressedHistory : [];
    const after: Message[] = history.map((content, index): Message => {
      const parts = isRecord(content) && Array.isArray(content.parts) ? content.parts : [];
      const role = isRecord(content) && content.role === "model" ? "assistant" : "user";
      return {
        id: `${entry.id}#c${index}`,
        role: index === 0 && role === "user" ? "summary" : role,
        meta: { compressedHistory: true },
        blocks: partsBlocks(parts),
        line: entry.line,
      };
    });
    const summary = after[0]?.role === "summary" ? after[0].blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n") || null : null;
    const step: CompactionStep = {
      line: entry.line,
      entryId: entry.id,
      timestamp: typeof raw.timestamp === "string" ? raw.timestamp : undefined,
      kind: "qwen-compression",
      trigger: null,
      tokensBefore: numberOr(info.originalTokenCount),
      tokensAfter: numberOr(info.newTokenCount),
      summary,
      apply: () => after,
    };
    items.push(step);
  }
  return items;
}

/** Each reply's `usageMetadata` (the Gemini API's figures); the window where the record states it. */
function qwenUsage(path: Entry[]): UsageSeries {
  const turns: UsageSeries["turns"] = [];
  let contextWindow: number | null = null;
  for (const entry of path) {
    for (const message of entry.messages) {
      if (message.role !== "assistant" || !isRecord(message.meta.usageMetadata)) continue;
      const usage = message.meta.usageMetadata;
      const input = numberOr(usage.promptTokenCount, 0)!;
      const cacheRead = numberOr(usage.cachedContentTokenCount, 0)!;
      turns.push({
        line: message.line ?? entry.line,
        messageId: message.id,
        input: input - cacheRead,
        output: numberOr(usage.candidatesTokenCount, 0)!,
        cacheRead,
        cacheWrite: 0,
        contextTokens: input,
      });
      contextWindow = numberOr(message.meta.contextWindowSize, contextWindow);
    }
  }
  return { turns, contextWindow, notes: turns.length ? ["promptTokenCount includes the cached tokens (the Gemini API's usageMetadata)"] : [] };
}
