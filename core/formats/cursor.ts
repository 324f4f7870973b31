/**
 * Cursor's agent transcripts (`~/.cursor/projects/<slug>/agent-transcripts/
 * <id>/<id>.jsonl`): one message a line, `{role, message: {content}}`, the
 * content a string or Anthropic-style blocks (`text`, `tool_use {name,
 * input}`, `tool_result {content}`), with lines that only mark a turn's end.
 * The lines carry no ids and no timestamps: a message's id is its line
 * (`L<n>`), and a tool result without the call's id answers the open call
 * of its turn, in order.
 *
 * What the file does not record, said rather than guessed: compactions
 * (Cursor summarises long chats without writing it here), token usage, the
 * model, and the working directory (the project folder's slug names it, but
 * the slug cannot be turned back into a path).
 */
import type { Block, Entry, Message } from "../model.ts";
import { SessionError } from "../model.ts";
import type { JsonLine } from "../jsonl.ts";
import { anthropicBlock } from "./anthropic-blocks.ts";
import { countOffTree, isRecord, without, type ReaderOutput } from "./common.ts";

const ROLES = new Set(["user", "assistant", "tool", "system"]);

function isCursorLine(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value) || typeof value.role !== "string" || !ROLES.has(value.role) || "type" in value || "uuid" in value) return false;
  const content = isRecord(value.message) ? value.message.content : undefined;
  return typeof content === "string" || Array.isArray(content);
}

/** Lines of `{role, message: {content}}` and no field another format requires (`type`, `uuid`). */
export function looksLikeCursor(records: JsonLine[]): boolean {
  const first = records.slice(0, 20);
  return first.some(({ value }) => isCursorLine(value)) && first.every(({ value }) => isCursorLine(value) || isTurnMark(value));
}

/** A line that only marks where a turn ended. */
function isTurnMark(value: unknown): boolean {
  return isRecord(value) && !("role" in value) && Object.keys(value).length <= 3 && Object.values(value).some((v) => typeof v === "string" && /turn/i.test(v));
}

export function readCursor(records: JsonLine[], strict: boolean): ReaderOutput {
  const warnings: ReaderOutput["warnings"] = [];
  const offTreeRecords: Record<string, number> = {};
  const toolCallIds = new Set<string>();
  const entries: Entry[] = [];
  let previousId: string | null = null;
  /** Calls of the turn not yet answered, in order. */
  let open: { id: string; name: string }[] = [];
  for (const { value, line } of records) {
    if (!isCursorLine(value)) {
      if (isTurnMark(value)) {
        countOffTree(offTreeRecords, "turn-end");
        open = [];
        continue;
      }
      if (strict) throw new SessionError(line, "not a Cursor transcript line ({role, message: {content}})");
      warnings.push({ line, message: "not a Cursor transcript line; skipped" });
      continue;
    }
    const id = `L${line}`;
    const meta = without(value, "message");
    const content = (value.message as { content: unknown }).content;
    const blocks: unknown[] = typeof content === "string" ? [{ type: "text", text: content }] : (content as unknown[]);
    const messages: Message[] = [];
    let pending: Block[] = [];
    const role = value.role === "assistant" ? "assistant" : value.role === "system" ? "system" : value.role === "tool" ? "toolResult" : "user";
    const flush = () => {
      if (pending.length === 0) return;
      messages.push({ id: `${id}#${messages.length}`, role, meta, blocks: pending, line });
      pending = [];
    };
    blocks.forEach((raw, index) => {
      if (isRecord(raw) && raw.type === "tool_use" && typeof raw.name === "string") {
        const callId = typeof raw.id === "string" ? raw.id : `${id}#call${index}`;
        toolCallIds.add(callId);
        open.push({ id: callId, name: raw.name });
        pending.push({ type: "toolCall", id: callId, name: raw.name, arguments: raw.input });
        return;
      }
      if (isRecord(raw) && raw.type === "tool_result") {
        flush();
        const byId = typeof raw.tool_use_id === "string" ? open.findIndex((call) => call.id === raw.tool_use_id) : -1;
        const call = open.splice(byId >= 0 ? byId : 0, open.length > 0 ? 1 : 0)[0];
        const output = typeof raw.content === "string" ? [{ type: "text", text: raw.content }] : Array.isArray(raw.content) ? raw.content : [raw.content];
        messages.push({
          id: `${id}#${messages.length}`,
          role: "toolResult",
          meta: { ...meta, ...(call ? { toolCallId: call.id, toolName: call.name } : {}), ...(typeof raw.is_error === "boolean" ? { isError: raw.is_error } : {}) },
          blocks: output.map((block) => anthropicBlock(block)),
          line,
        });
        return;
      }
      pending.push(anthropicBlock(raw, toolCallIds));
    });
    flush();
    if (messages.length === 1) messages[0]!.id = id;
    entries.push({ id, parentId: previousId, line, type: "message", messages });
    previousId = id;
  }
  return {
    format: "cursor",
    entries,
    warnings,
    toolCallIds,
    offTreeRecords,
    defaultLeafId: previousId,
    recorded: (path) => ({ messages: path.flatMap((e) => e.messages), compactions: 0, droppedMessageIds: [] }),
  };
}
