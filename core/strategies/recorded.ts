/**
 * The compactions already in the file, as a checkpoint: the active view is
 * the context the real agent would send now (Pi's buildSessionContext, the
 * messages after Claude Code's last compact boundary, Codex's last
 * replacement_history and what follows). Every branch message the agent no
 * longer sends is referenced in the archive, whole: the audit view of what
 * the real compaction dropped.
 */
import { computeStats } from "../checkpoint.ts";
import { archiveRemovals } from "./shared.ts";
import type { Message } from "../model.ts";
import type { StrategyContext, StrategyResult } from "./types.ts";

export async function recorded(branch: readonly Message[], context: StrategyContext): Promise<StrategyResult> {
  const recordedContext = context.recorded ?? { messages: [...branch], compactions: 0, droppedMessageIds: [] };
  const dropped = new Set(recordedContext.droppedMessageIds);
  const droppedMessages = branch.filter((message) => dropped.has(message.id));
  const archive = await archiveRemovals(droppedMessages.map((message) => ({ message, path: "", payload: message, kind: "message" as const })));
  const active = recordedContext.messages;
  return {
    active,
    archive,
    stats: computeStats(branch, active, archive.length, 0),
    details: { compactions: recordedContext.compactions, droppedMessages: droppedMessages.length },
  };
}
