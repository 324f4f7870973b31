/**
 * Codex `event_msg` `thread_rolled_back {num_turns}`: the user undid their
 * last turns, and Codex rebuilds its history without them (it drops the last
 * `num_turns` user turns and everything after the first of them). Applied in
 * file order by core/compactions/codex.ts, so a rollback only removes what
 * was there when it was written; this file says what a rollback is and where
 * a user turn starts.
 */
import type { Entry, Message } from "../model.ts";
import { isRecord } from "./common.ts";

/** Instructions Codex sends as user messages: not turns the user typed. */
const SESSION_PREFIX = /^\s*(<environment_context|<user_instructions|# AGENTS\.md instructions)/;

export function startsUserTurn(message: Message): boolean {
  if (message.role !== "user") return false;
  const first = message.blocks.find((b) => b.type === "text");
  return !(first?.type === "text" && SESSION_PREFIX.test(first.text));
}

export function rollbackTurns(entry: Entry): number | null {
  const record = entry.data;
  if (entry.type !== "event_msg" || !isRecord(record) || !isRecord(record.payload) || record.payload.type !== "thread_rolled_back") return null;
  return typeof record.payload.num_turns === "number" ? record.payload.num_turns : null;
}
