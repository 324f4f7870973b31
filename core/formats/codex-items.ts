/**
 * A Codex response item → its neutral messages: a message, reasoning, a tool
 * call or its output. Shared by the rollout reader (codex.ts) and the
 * compaction history (core/compactions/codex.ts), which reads the items a
 * `compacted` record's replacement history holds.
 */
import type { Block, Message, Role } from "../model.ts";
import { extraFields, isRecord, parsedArguments, without, withExtra } from "./common.ts";

function codexRole(role: unknown): Role {
  if (role === "user" || role === "assistant") return role;
  return "system"; // developer and system instructions
}

function contentBlocks(content: unknown): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return content === undefined || content === null ? [] : [{ type: "raw", value: content }];
  return content.map((part): Block => {
    if (isRecord(part) && (part.type === "input_text" || part.type === "output_text") && typeof part.text === "string") {
      // The part type is kept so an export can write the item back as it was.
      return withExtra({ type: "text", text: part.text }, { partType: part.type, ...extraFields(part, ["text"]) });
    }
    if (isRecord(part) && part.type === "input_image" && typeof part.image_url === "string") {
      const match = /^data:([^;,]+);base64,(.*)$/s.exec(part.image_url);
      if (match) return withExtra({ type: "image", mimeType: match[1]!, data: match[2]! }, extraFields(part, ["image_url"]));
    }
    return { type: "raw", value: part };
  });
}

function outputBlocks(output: unknown): Block[] {
  if (typeof output === "string") return [{ type: "text", text: output }];
  if (isRecord(output) && typeof output.content === "string") {
    return [withExtra({ type: "text", text: output.content }, extraFields(output, ["content"]))];
  }
  if (Array.isArray(output)) return contentBlocks(output);
  return output === undefined ? [] : [{ type: "raw", value: output }];
}

export function responseItemMessages(item: Record<string, unknown>, id: string, line: number, toolCallIds: Set<string>): Message[] {
  switch (item.type) {
    case "message":
      return [{ id, role: codexRole(item.role), meta: without(item, "content"), blocks: contentBlocks(item.content), line }];
    case "reasoning": {
      const summary = Array.isArray(item.summary)
        ? item.summary
            .map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : ""))
            .filter(Boolean)
            .join("\n")
        : "";
      const thinking = withExtra({ type: "thinking", text: summary } as Block, extraFields(item, ["id"]));
      return [{ id, role: "assistant", meta: { type: "reasoning", ...(item.id !== undefined ? { id: item.id } : {}) }, blocks: [thinking], line }];
    }
    case "function_call":
    case "custom_tool_call":
    case "local_shell_call": {
      const callId = typeof item.call_id === "string" ? item.call_id : typeof item.id === "string" ? item.id : id;
      toolCallIds.add(callId);
      const name = typeof item.name === "string" ? item.name : item.type === "local_shell_call" ? "local_shell" : "tool";
      const args = item.type === "function_call" ? parsedArguments(item.arguments) : { value: item.type === "custom_tool_call" ? item.input : item.action };
      const call = withExtra({ type: "toolCall", id: callId, name, arguments: args.value } as Block, args.extra);
      return [{ id, role: "assistant", meta: without(item, "arguments", "input", "action"), blocks: [call], line }];
    }
    case "function_call_output":
    case "custom_tool_call_output":
      return [{ id, role: "toolResult", meta: without(item, "output"), blocks: outputBlocks(item.output), line }];
    case "compaction":
    case "compaction_summary":
      // A remote compaction's opaque result: shown by its size, never guessed at.
      if (typeof item.encrypted_content === "string") {
        const opaqueBytes = new TextEncoder().encode(item.encrypted_content).length;
        return [{ id, role: "summary", meta: { type: item.type, opaqueBytes }, blocks: [{ type: "raw", value: item }], line }];
      }
      return [{ id, role: "custom", meta: { type: item.type }, blocks: [{ type: "raw", value: item }], line }];
    default:
      return [{ id, role: "custom", meta: { type: item.type }, blocks: [{ type: "raw", value: item }], line }];
  }
}
