/** What the checkride quizzes for one checkpoint. */
import type { Checkpoint } from "../checkpoint.ts";
import type { Message } from "../model.ts";

/**
 * The active view, and for a tiered strategy (handoff) each tier first:
 * "handoff · summary alone", "handoff · summary + staples", then "handoff".
 */
export function checkrideTargets(checkpoint: Pick<Checkpoint, "strategy" | "active">): { name: string; active: Message[]; needsModel?: string }[] {
  const name = checkpoint.strategy.name;
  const tiers = checkpoint.strategy.tiers as Record<string, number> | undefined;
  // A tier made of the summary slot alone says nothing when no model wrote the summary.
  const noSummary = typeof checkpoint.strategy.summary === "string" && checkpoint.strategy.summary.startsWith("none");
  const targets = Object.entries(tiers ?? {}).map(([tier, count]) => {
    const active = checkpoint.active.slice(0, count);
    const summaryOnly = active.every((m) => m.meta?.tier === "summary");
    return { name: `${name} · ${tier}`, active, ...(noSummary && summaryOnly ? { needsModel: "needs a model: without one the summary slot is empty" } : {}) };
  });
  targets.push({ name, active: checkpoint.active });
  return targets;
}
