/** Shared by the per-format usage readers: the file's own figures, never estimated. */
import type { UsageSeries, UsageTurn } from "../model.ts";

/** A count from the file: a finite non-negative number, else 0. */
export function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

export function isAllZero(turn: Pick<UsageTurn, "input" | "output" | "cacheRead" | "cacheWrite">): boolean {
  return turn.input === 0 && turn.output === 0 && turn.cacheRead === 0 && turn.cacheWrite === 0;
}

export function emptySeries(): UsageSeries {
  return { turns: [], contextWindow: null, notes: [] };
}

export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
