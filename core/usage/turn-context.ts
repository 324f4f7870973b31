/**
 * The context the model read on a recorded turn, so that the file's own
 * figure (UsageTurn.contextTokens) can be set beside the model-view count of
 * the same messages. The turn's input is everything sent before its response:
 * the recorded context up to the turn's own message (Claude Code, Pi), or up
 * to the usage record minus the response items just before it (Codex writes
 * token_count after the call's reasoning, tool calls and message).
 */
import type { Message, UsageTurn } from "../model.ts";

export function contextBeforeTurn(recorded: readonly Message[], turn: UsageTurn): Message[] {
  if (turn.messageId !== undefined) {
    const at = recorded.findIndex((message) => message.id === turn.messageId);
    if (at !== -1) return recorded.slice(0, at);
  }
  let end = 0;
  while (end < recorded.length && (recorded[end]!.line ?? 0) < turn.line) end++;
  // The call's own output sits just before its usage record: it is not part of what was read.
  while (end > 0 && recorded[end - 1]!.role === "assistant") end--;
  return recorded.slice(0, end);
}
