/**
 * Codex CLI rollouts (JSONL), modern (`{timestamp, type, payload}`) and legacy
 * (2025-08: a header line, then bare response items and state lines). A
 * rollout is linear. The model's context is the response items; event
 * messages only duplicate them for display (kept as entries for the facts).
 * A `compacted` record with replacement_history *is* the context after it.
 */
import type { Block, Entry, Message, Role } from "../model.ts";
import type { JsonLine } from "../jsonl.ts";
import { SessionError } from "../model.ts";
import { countOffTree, extraFields, isRecord, without, withExtra, type ReaderOutput } from "./common.ts";
import { codexCompactionHistory } from "../compactions/codex.ts";
import { codexUsage } from "../usage/codex.ts";

const MODERN_TYPES = new Set(["session_meta", "turn_context", "response_item", "event_msg", "compacted"]);
const RESPONSE_ITEM_TYPES = new Set([
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "web_search_call",
]);

export function looksLikeCodex(records: JsonLine[]): boolean {
  return records.slice(0, 20).some(({ value }) => {
    if (!isRecord(value)) return false;
    if (typeof value.type === "string" && MODERN_TYPES.has(value.type) && "payload" in value) return true;
    if (value.record_type === "state") return true;
    return typeof value.instructions === "string" && typeof value.id === "string" && !("type" in value);
  });
}

export function readCodex(records: JsonLine[], strict: boolean): ReaderOutput {
  const reader = new CodexReader(strict);
  for (const record of records) reader.add(record);
  return reader.finish();
}

/**
 * The Codex reader, fed one record at a time. `mapEntry`: what to keep of
 * each entry made (null: nothing), as for PiReader (core/compact-stream.ts).
 */
export class CodexReader {
  private readonly warnings: ReaderOutput["warnings"] = [];
  private readonly toolCallIds = new Set<string>();
  private readonly offTreeRecords: Record<string, number> = {};
  private readonly entries: Entry[] = [];
  private header: unknown;
  private formatVersion: string | undefined;
  private previousId: string | null = null;
  private legacy = false;

  constructor(
    private readonly strict: boolean,
    private readonly mapEntry?: (entry: Entry) => Entry | null,
  ) {}

  private push(entry: Entry): void {
    const kept = this.mapEntry ? this.mapEntry(entry) : entry;
    if (kept) this.entries.push(kept);
    this.previousId = entry.id;
  }

  add({ line, value }: JsonLine): void {
    const { warnings, toolCallIds, previousId } = this;
    if (!isRecord(value)) {
      if (this.strict) throw new SessionError(line, "a Codex record must be a JSON object");
      warnings.push({ line, message: "not a JSON object; skipped" });
      return;
    }
    const id = `L${line}`;
    if (value.record_type === "state") {
      this.legacy = true;
      countOffTree(this.offTreeRecords, "state");
      return;
    }
    if (typeof value.type === "string" && MODERN_TYPES.has(value.type) && "payload" in value) {
      const payload = value.payload;
      const entry: Entry = { id, parentId: previousId, line, type: value.type, messages: [] };
      if (value.type === "response_item" && isRecord(payload)) {
        entry.messages.push(...responseItemMessages(payload, id, line, toolCallIds));
      } else if (value.type === "compacted" && isRecord(payload)) {
        entry.messages.push({
          id,
          role: "summary",
          meta: without(payload, "message"),
          blocks: typeof payload.message === "string" ? [{ type: "text", text: payload.message }] : [],
          line,
        });
      } else {
        if (value.type === "session_meta") {
          if (this.header === undefined) this.header = payload;
          else warnings.push({ line, message: "session_meta repeated (the session was resumed); the first is the header" });
          if (isRecord(payload) && typeof payload.cli_version === "string") this.formatVersion ??= payload.cli_version;
        }
        entry.data = value;
      }
      this.push(entry);
      return;
    }
    // Before any entry (previousId is the last entry's id), a legacy rollout's first line is its header.
    if (this.header === undefined && previousId === null && typeof value.instructions === "string" && !("type" in value)) {
      this.legacy = true;
      this.header = value;
      return;
    }
    if (typeof value.type === "string" && RESPONSE_ITEM_TYPES.has(value.type)) {
      this.legacy = true;
      this.push({ id, parentId: previousId, line, type: value.type, messages: responseItemMessages(value, id, line, toolCallIds) });
      return;
    }
    // Newer record kinds (world_state, …): kept as tree nodes the model never sees.
    this.push({ id, parentId: previousId, line, type: typeof value.type === "string" ? value.type : "unknown", messages: [], data: value });
  }

  finish(): ReaderOutput {
    return {
      format: "codex",
      formatVersion: this.formatVersion ?? (this.legacy ? "legacy-2025-08" : undefined),
      header: this.header,
      entries: this.entries,
      warnings: this.warnings,
      toolCallIds: this.toolCallIds,
      offTreeRecords: this.offTreeRecords,
      defaultLeafId: this.previousId,
      recorded: (path) => codexCompactionHistory(path).recorded,
      compactions: (path) => codexCompactionHistory(path).compactions,
      usage: codexUsage,
    };
  }
}

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

function parseArguments(text: unknown): { value: unknown; extra?: Record<string, unknown> } {
  if (typeof text !== "string") return { value: text };
  try {
    // Tools get structured arguments; the exact source string stays in extra.
    return { value: JSON.parse(text), extra: { argumentsJson: text } };
  } catch {
    return { value: text };
  }
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
      const args = item.type === "function_call" ? parseArguments(item.arguments) : { value: item.type === "custom_tool_call" ? item.input : item.action };
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
