/**
 * Which other strategies leave exactly the same active context as the view's
 * on this branch, and why: computed from the checkpoints themselves (each
 * strategy run on the branch with the view's options, the active contexts
 * compared message by message as the model reads them), never guessed.
 */
import { compactSession } from "../../../core/compact.ts";
import type { Checkpoint } from "../../../core/checkpoint.ts";
import type { FormatName, Message } from "../../../core/model.ts";
import { messageSegments } from "../../../core/model-view.ts";
import { STRATEGIES } from "../../../core/strategies/index.ts";
import type { Equivalents } from "../protocol.ts";
import type { Screen } from "../screen.ts";

/** Past this many branch messages the comparison (a compaction per strategy) is not made. */
export const COMPARE_MAX_MESSAGES = 20_000;

export async function equivalents(screen: Screen, signal?: { readonly aborted: boolean }): Promise<Equivalents> {
  const { session, summary } = screen.loaded;
  const view = screen.view;
  const current = view.checkpoint;
  if (view.original.messages.length > COMPARE_MAX_MESSAGES) {
    return { strategy: current.strategy.name, same: [], compared: false, why: `not compared: the branch has over ${COMPARE_MAX_MESSAGES.toLocaleString("en-US")} messages` };
  }
  if (view.round > 0)
    return { strategy: current.strategy.name, same: [], compared: false, why: "not compared after compacting again (the other strategies start from the branch)" };
  const mine = signatures(current.active, session.format);
  const same: Equivalents["same"] = [];
  for (const strategy of STRATEGIES) {
    if (strategy.name === current.strategy.name) continue;
    if (signal?.aborted) throw new Error("comparison cancelled");
    const other = await compactSession(session, summary, { strategy: strategy.name, options: view.summary.options, leafId: view.summary.leafId });
    if (!sameContext(mine, signatures(other.active, session.format))) continue;
    same.push({ strategy: strategy.name, label: strategy.label, reason: reasonFor(current, other) });
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return { strategy: current.strategy.name, same, compared: true, why: null };
}

function signatures(active: readonly Message[], format: FormatName): string[] {
  return active.map((message) =>
    messageSegments(message, format)
      .map((s) => `${s.category}\u0000${s.text}`)
      .join("\u0001"),
  );
}

function sameContext(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((text, i) => text === b[i]);
}

/** Why two checkpoints came out the same, from what each strategy recorded of its run. */
function reasonFor(a: Checkpoint, b: Checkpoint): string {
  const count = a.active.length;
  for (const checkpoint of [a, b]) {
    const details = checkpoint.strategy as { name: string; briefedMessages?: number; keepTurns?: number; cut?: unknown; summarisedMessages?: number };
    if (details.name === "brief" && details.briefedMessages === 0) {
      return `Brief keeps the last ${details.keepTurns ?? 2} user turns as Transparent would and briefs only what is older; this branch has nothing older, so nothing was briefed (the same ${count} messages).`;
    }
    if (details.name === "pi-default" && (details.cut === null || details.summarisedMessages === 0)) {
      return `Pi's cut found nothing to summarise on this branch (it keeps about 20,000 tokens), so it keeps every message (the same ${count} messages).`;
    }
  }
  return `Both leave exactly the same ${count} messages, word for word as the model reads them, on this branch: what tells them apart did not come into play here.`;
}
