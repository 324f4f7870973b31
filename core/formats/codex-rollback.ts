/**
 * Codex `event_msg` `thread_rolled_back {num_turns}`: the user undid their
 * last turns, and Codex rebuilds its history without them (it drops the last
 * `num_turns` user turns and everything after the first of them). Applied to
 * the recorded context in file order, so a rollback only removes what was
 * there when it was written.
 */
import type { Entry, Message, RecordedContext } from "../model.ts";
import { isRecord } from "./common.ts";

/** Instructions Codex sends as user messages: not turns the user typed. */
const SESSION_PREFIX = /^\s*(<environment_context|<user_instructions|# AGENTS\.md instructions)/;

function startsUserTurn(message: Message): boolean {
  if (message.role !== "user") return false;
  const first = message.blocks.find((b) => b.type === "text");
  return !(first?.type === "text" && SESSION_PREFIX.test(first.text));
}

export function rollbackTurns(entry: Entry): number | null {
  const record = entry.data;
  if (entry.type !== "event_msg" || !isRecord(record) || !isRecord(record.payload) || record.payload.type !== "thread_rolled_back") return null;
  return typeof record.payload.num_turns === "number" ? record.payload.num_turns : null;
}

/** The recorded context with every rollback on the path applied where it was written. */
export function withRollbacks(path: Entry[], recorded: RecordedContext): RecordedContext {
  if (!path.some((entry) => rollbackTurns(entry) !== null)) return recorded;
  const lineOf = new Map<Entry, number>(path.map((entry) => [entry, entry.line]));
  let messages = recorded.messages;
  const dropped = [...recorded.droppedMessageIds];
  for (const entry of path) {
    const turns = rollbackTurns(entry);
    if (turns === null || turns <= 0) continue;
    const at = lineOf.get(entry)!;
    // Messages written before the rollback; replacement copies carry the compacted record's line.
    const earlier = messages.filter((m) => (m.line ?? 0) < at);
    const starts = earlier.map((m, i) => (startsUserTurn(m) ? i : -1)).filter((i) => i !== -1);
    const cut = starts.length >= turns ? starts[starts.length - turns]! : starts[0] ?? earlier.length;
    const removed = new Set(earlier.slice(cut));
    for (const m of removed) dropped.push(m.id);
    messages = messages.filter((m) => !removed.has(m));
  }
  return { ...recorded, messages, droppedMessageIds: dropped };
}
