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
import type { Entry, FormatName, Message, Session, UsageTurn } from "../model.ts";

/**
 * `leafId`: the branch the turn was read from, when the caller knows it. A turn of that branch with
 * no compaction recorded after it read what the branch's own recorded context holds before the
 * turn's message, so that context (made once per branch) is cut instead of making another for the
 * turn's parent, which a followed file would pay on every look.
 */
export function contextAtTurn(session: Session, turn: UsageTurn, leafId?: string | null): Message[] {
  const own = turn.messageId === undefined ? undefined : session.byId.get(turn.messageId);
  if (own) {
    if (own.parentId === null) return [];
    return (leafId !== undefined ? beforeOnBranch(session, leafId, own) : undefined) ?? session.recordedContext(own.parentId).messages;
  }
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

/**
 * The formats whose recorded context only grows between compactions. The replaying readers' may
 * change without one (Copilot's system prompt sent again takes the earlier one's place, Gemini
 * sets its whole history again on a resume), so a later context is no cut of an earlier one.
 */
const APPENDED_BETWEEN_COMPACTIONS = new Set<FormatName>(["claude", "pi"]);

/**
 * What the branch's recorded context holds before the turn's message, or undefined where that may
 * differ from the context at the turn's parent: a compaction recorded at or after the turn (it
 * changed what came before), or the turn's message not found under its own id as it was read
 * first (a streamed continuation merged into an earlier line's message: the parent's context
 * holds the earlier lines, the branch's does not).
 */
function beforeOnBranch(session: Session, leafId: string | null, own: Entry): Message[] | undefined {
  const first = own.messages[0];
  if (!first || !APPENDED_BETWEEN_COMPACTIONS.has(session.format)) return undefined;
  if (session.recordedCompactions(leafId).some((compaction) => compaction.line >= own.line)) return undefined;
  const messages = session.recordedContext(leafId).messages;
  // The turn is near the end of its branch for the turns this is asked for (the last), so look from the end.
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.id !== first.id) continue;
    return message === first || message.blocks[0] === first.blocks[0] ? messages.slice(0, i) : undefined;
  }
  return undefined;
}
