/**
 * Anthropic Messages content → neutral blocks. Shared by the Claude Code
 * reader and the plain Anthropic message-array reader.
 */
import type { Block, Message } from "../model.ts";
import { extraFields, isRecord, textOrThinkingBlock, without, withExtra } from "./common.ts";

export function anthropicBlock(block: unknown, toolCallIds?: Set<string>): Block {
  if (!isRecord(block)) return typeof block === "string" ? { type: "text", text: block } : { type: "raw", value: block };
  const plain = textOrThinkingBlock(block);
  if (plain) return plain;
  switch (block.type) {
    case "tool_use":
      if (typeof block.id === "string" && typeof block.name === "string") {
        toolCallIds?.add(block.id);
        return withExtra({ type: "toolCall", id: block.id, name: block.name, arguments: block.input }, extraFields(block, ["id", "name", "input"]));
      }
      break;
    case "image": {
      const source = block.source;
      if (isRecord(source) && source.type === "base64" && typeof source.data === "string") {
        const mimeType = typeof source.media_type === "string" ? source.media_type : "application/octet-stream";
        return withExtra({ type: "image", mimeType, data: source.data }, extraFields(block, ["source"]));
      }
      break;
    }
  }
  return { type: "raw", value: block };
}

export function anthropicContent(content: unknown, toolCallIds?: Set<string>): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (Array.isArray(content)) return content.map((block) => anthropicBlock(block, toolCallIds));
  if (content === undefined || content === null) return [];
  return [{ type: "raw", value: content }];
}

/**
 * A user turn in the Anthropic shape may carry tool_result blocks. Each one
 * becomes its own toolResult message (so a result pairs with exactly one call);
 * the remaining blocks stay a user message, in their original order.
 */
export function splitUserContent(baseId: string, content: unknown, meta: Record<string, unknown>, line: number, role: "user" | "summary" = "user"): Message[] {
  if (!Array.isArray(content) || !content.some((b) => isRecord(b) && b.type === "tool_result")) {
    return [{ id: baseId, role, meta, blocks: anthropicContent(content), line }];
  }
  const out: Message[] = [];
  let pending: Block[] = [];
  const flushUser = () => {
    if (pending.length === 0) return;
    out.push({ id: `${baseId}#${out.length}`, role, meta, blocks: pending, line });
    pending = [];
  };
  for (const block of content) {
    if (isRecord(block) && block.type === "tool_result") {
      flushUser();
      out.push({
        id: `${baseId}#${out.length}`,
        role: "toolResult",
        meta: { ...meta, toolResult: without(block, "content") },
        blocks: anthropicContent(block.content),
        line,
      });
    } else {
      pending.push(anthropicBlock(block));
    }
  }
  flushUser();
  // A single message keeps the plain id, so ids stay short and obvious.
  if (out.length === 1) out[0]!.id = baseId;
  return out;
}
