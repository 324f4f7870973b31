/**
 * The context the model read on a recorded turn, so that the file's own
 * figure (UsageTurn.contextTokens) can be set beside the model-view count of
 * the same messages. The turn's input is the agent's recorded context as it
 * stood just before the turn's response: up to the entry before the turn's
 * message (Claude Code, Pi), or up to the usage record minus the response
 * items just before it (Codex writes token_count after the call's reasoning,
 * tool calls and message, and after those tool calls' outputs, seen in
 * Codex 0.142). Earlier compactions apply as they did then.
 */
import type { Message, Session, UsageTurn } from "../model.ts";

export function contextAtTurn(session: Session, turn: UsageTurn): Message[] {
  const own = turn.messageId === undefined ? undefined : session.byId.get(turn.messageId);
  if (own) return own.parentId === null ? [] : session.recordedContext(own.parentId).messages;
  const record = session.entries.find((entry) => entry.line === turn.line);
  if (!record) return [];
  const messages = session.recordedContext(record.id).messages;
  // Just before the usage record sit the call's response (reasoning, message, tool calls) and,
  // written before the record, the outputs of those tool calls: neither was part of what was read.
  let end = messages.length;
  while (end > 0 && messages[end - 1]!.role === "toolResult") end--;
  while (end > 0 && messages[end - 1]!.role === "assistant") end--;
  return messages.slice(0, end);
}
