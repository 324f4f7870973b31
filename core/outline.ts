/**
 * A session's outline: its tree without its contents. Each entry keeps its
 * id, parent, line and type; each message only its role, its tool calls' ids
 * and names, and the two metadata fields a format's branch is built from: an
 * API message id (Claude Code merges the lines of one streamed message by it)
 * and the call a tool result answers (it takes in parallel results beside the
 * path by it). That is all a branch's compaction needs to know before it reads
 * the branch's messages (which records are on the branch, in what order, how
 * many messages, and the name of the call each tool result answers). The
 * CLI's streamed compaction (core/compact-stream.ts) reads a file once for
 * its outline and again for the messages.
 *
 * An outline costs about 0.5 KB a record whatever the record holds (measured
 * on the generated bench session), so what is shared is shared: one message
 * per role for the messages without tool calls, one list for the entries
 * without messages, one string per entry type.
 */
import type { Block, Entry, Message, Role } from "./model.ts";

const NO_META: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;
const NO_MESSAGES: Message[] = Object.freeze([]) as unknown as Message[];
const NO_BLOCKS: Block[] = Object.freeze([]) as unknown as Block[];

/** An outline's message without tool calls: the same object for every one of a role (its id is not kept). */
const plainMessages = new Map<Role, Message>();
const entryTypes = new Map<string, string>();

export function outlineEntry(entry: Entry): Entry {
  let type = entryTypes.get(entry.type);
  if (type === undefined) entryTypes.set(entry.type, (type = entry.type));
  const messages = entry.messages.length === 0 ? NO_MESSAGES : entry.messages.map(outlineMessage);
  const outline: Entry = { id: entry.id, parentId: entry.parentId, line: entry.line, type, messages };
  if (entry.sidechain) outline.sidechain = true;
  return outline;
}

function outlineMessage(message: Message): Message {
  let calls: Block[] | undefined;
  for (const block of message.blocks) if (block.type === "toolCall") (calls ??= []).push({ type: "toolCall", id: block.id, name: block.name, arguments: undefined });
  const meta = outlineMeta(message.meta);
  if (calls || meta !== NO_META) return { id: message.id, role: message.role, meta, blocks: calls ?? NO_BLOCKS };
  let plain = plainMessages.get(message.role);
  if (!plain) plainMessages.set(message.role, (plain = Object.freeze({ id: "", role: message.role, meta: NO_META, blocks: NO_BLOCKS }) as Message));
  return plain;
}

/** The metadata a branch is built from: `id` (an API message id) and a result's call id, in the fields the formats use for it. */
function outlineMeta(meta: Record<string, unknown>): Record<string, unknown> {
  let kept: Record<string, unknown> | undefined;
  for (const key of CALL_ID_KEYS) if (typeof meta[key] === "string") (kept ??= {})[key] = meta[key];
  const anthropic = meta.toolResult;
  if (typeof anthropic === "object" && anthropic !== null && typeof (anthropic as { tool_use_id?: unknown }).tool_use_id === "string") {
    (kept ??= {}).toolResult = { tool_use_id: (anthropic as { tool_use_id: string }).tool_use_id };
  }
  return kept ?? NO_META;
}

const CALL_ID_KEYS = ["id", "toolCallId", "call_id", "tool_call_id"];
