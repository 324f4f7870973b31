/**
 * Plain message arrays (`.json`): OpenAI chat, Anthropic Messages, and
 * `{messages: [...]}` wrappers such as mini-swe-agent trajectories. No ids in
 * the source: each message gets `m<index>` (0-based position), stable across
 * loads. `line` holds index + 1 so errors can name "message N".
 */
import type { Block, Entry, FormatName, Message } from "../model.ts";
import { SessionError } from "../model.ts";
import { anthropicContent, splitUserContent } from "./anthropic-blocks.ts";
import { extraFields, isRecord, parsedArguments, without, withExtra, type ReaderOutput } from "./common.ts";

export interface MessageArray {
  messages: unknown[];
  wrapper?: Record<string, unknown>;
}

/** The array itself, or the array inside a `{messages: [...]}` wrapper; null otherwise. */
export function findMessageArray(value: unknown): MessageArray | null {
  if (Array.isArray(value)) return { messages: value };
  if (isRecord(value) && Array.isArray(value.messages)) return { messages: value.messages, wrapper: without(value, "messages") };
  return null;
}

export function readMessageArray(found: MessageArray, format: FormatName, strict: boolean): ReaderOutput {
  const warnings: ReaderOutput["warnings"] = [];
  const toolCallIds = new Set<string>();
  const entries: Entry[] = [];
  let previousId: string | null = null;
  found.messages.forEach((message, index) => {
    const id = `m${index}`;
    const line = index + 1;
    if (!isRecord(message) || typeof message.role !== "string") {
      if (strict) throw new SessionError(line, `message ${index} has no "role"`);
      warnings.push({ line, message: `message ${index} has no "role"; kept as raw` });
    }
    const messages =
      isRecord(message) && typeof message.role === "string"
        ? format === "anthropic"
          ? anthropicMessage(message, id, line, toolCallIds)
          : openaiMessage(message, id, line, toolCallIds)
        : [{ id, role: "custom" as const, meta: {}, blocks: [{ type: "raw" as const, value: message }], line }];
    entries.push({ id, parentId: previousId, line, type: "message", messages });
    previousId = id;
  });
  return {
    format,
    header: found.wrapper,
    entries,
    warnings,
    toolCallIds,
    offTreeRecords: {},
    defaultLeafId: previousId,
    recorded: (path) => ({ messages: path.flatMap((e) => e.messages), compactions: 0, droppedMessageIds: [] }),
  };
}

function openaiMessage(message: Record<string, unknown>, id: string, line: number, toolCallIds: Set<string>): Message[] {
  const meta = without(message, "content", "tool_calls");
  const blocks = openaiContent(message.content);
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) blocks.push(openaiToolCall(call, toolCallIds));
  }
  const role =
    message.role === "tool"
      ? "toolResult"
      : message.role === "system" || message.role === "developer"
        ? "system"
        : message.role === "user" || message.role === "assistant"
          ? message.role
          : "custom";
  return [{ id, role, meta, blocks, line }];
}

function openaiContent(content: unknown): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (content === null || content === undefined) return [];
  if (!Array.isArray(content)) return [{ type: "raw", value: content }];
  return content.map((part): Block => {
    if (isRecord(part) && part.type === "text" && typeof part.text === "string") return withExtra({ type: "text", text: part.text }, extraFields(part, ["text"]));
    if (isRecord(part) && part.type === "image_url" && isRecord(part.image_url) && typeof part.image_url.url === "string") {
      const match = /^data:([^;,]+);base64,(.*)$/s.exec(part.image_url.url);
      if (match) return withExtra({ type: "image", mimeType: match[1]!, data: match[2]! }, extraFields(part, ["image_url"]));
    }
    return { type: "raw", value: part };
  });
}

function openaiToolCall(call: unknown, toolCallIds: Set<string>): Block {
  if (!isRecord(call) || typeof call.id !== "string" || !isRecord(call.function) || typeof call.function.name !== "string") {
    return { type: "raw", value: call };
  }
  toolCallIds.add(call.id);
  const args = parsedArguments(call.function.arguments);
  const extra = args.extra ? { ...extraFields(call, ["id", "function"]), ...args.extra } : extraFields(call, ["id", "function"]);
  return withExtra({ type: "toolCall", id: call.id, name: call.function.name, arguments: args.value }, extra);
}

function anthropicMessage(message: Record<string, unknown>, id: string, line: number, toolCallIds: Set<string>): Message[] {
  const meta = without(message, "content");
  if (message.role === "user") return splitUserContent(id, message.content, meta, line);
  const role = message.role === "assistant" ? "assistant" : "custom";
  return [{ id, role, meta, blocks: anthropicContent(message.content, toolCallIds), line }];
}
