/** What the checkride quizzes for one checkpoint. */
import type { Checkpoint } from "../checkpoint.ts";
import type { Message } from "../model.ts";

/**
 * The active view, and for a tiered strategy (handoff) each tier first:
 * "handoff · summary alone", "handoff · summary + staples", then "handoff".
 */
export function checkrideTargets(checkpoint: Pick<Checkpoint, "strategy" | "active">): { name: string; active: Message[] }[] {
  const name = checkpoint.strategy.name;
  const tiers = checkpoint.strategy.tiers as Record<string, number> | undefined;
  const targets = Object.entries(tiers ?? {}).map(([tier, count]) => ({ name: `${name} · ${tier}`, active: checkpoint.active.slice(0, count) }));
  targets.push({ name, active: checkpoint.active });
  return targets;
}
