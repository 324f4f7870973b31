/**
 * What every format's compaction history shares: the list of compactions
 * the file records along a branch and the context the agent sends at the
 * end, computed in one pass so that the recorded context is, by
 * construction, the `after` of the last compaction plus everything after it.
 */
import type { CompactionKind, Message, RecordedCompaction, RecordedContext } from "../model.ts";

export interface CompactionHistory {
  compactions: RecordedCompaction[];
  /** The context after the last compaction plus every message after it. */
  recorded: RecordedContext;
}

/** The fields a format states about one compaction; index, contexts and dropped ids are filled in here. */
export type CompactionRecord = Omit<RecordedCompaction, "index" | "before" | "after" | "droppedMessageIds">;

/** Ids of `before` messages that do not reach the model in `after` (a message changed in place counts as kept). */
export function droppedIds(before: readonly Message[], after: readonly Message[]): string[] {
  const kept = new Set(after.map((message) => message.id));
  return before.filter((message) => !kept.has(message.id)).map((message) => message.id);
}

/**
 * Collects compactions in order. Each format walks its branch, keeps the
 * current context, and calls `record` at every compaction with the context
 * just after it; the collector numbers them and works out what was dropped.
 */
export class CompactionCollector {
  readonly compactions: RecordedCompaction[] = [];
  /** Every message id that some compaction on the branch dropped. */
  private readonly dropped = new Set<string>();

  record(fields: CompactionRecord, before: readonly Message[], after: Message[]): Message[] {
    const droppedMessageIds = droppedIds(before, after);
    for (const id of droppedMessageIds) this.dropped.add(id);
    this.compactions.push({ ...fields, index: this.compactions.length + 1, before: [...before], after: [...after], droppedMessageIds });
    return after;
  }

  /**
   * The history with `current` as the final context. Dropped ids are the
   * branch messages that are not in it (a later compaction may drop a message
   * an earlier one kept).
   */
  finish(current: Message[], branch: readonly Message[]): CompactionHistory {
    const sent = new Set(current.map((message) => message.id));
    const droppedMessageIds = branch.filter((message) => !sent.has(message.id)).map((message) => message.id);
    return { compactions: this.compactions, recorded: { messages: current, compactions: this.countedCompactions(), droppedMessageIds } };
  }

  /** The number RecordedContext.compactions has always meant: summarising compactions, not microcompacts or rollbacks. */
  private countedCompactions(): number {
    return this.compactions.filter((c) => SUMMARISING.has(c.kind)).length;
  }
}

const SUMMARISING = new Set<CompactionKind>(["pi-compaction", "claude-compact", "codex-compacted"]);

export function numberOr(value: unknown, fallback: number | null = null): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

export function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function triggerOf(value: unknown): "auto" | "manual" | null {
  return value === "auto" || value === "manual" ? value : null;
}
