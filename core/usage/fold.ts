/**
 * A usage reader as a fold over a path's entries, one at a time, so a
 * followed file's next look goes on from the last one's fold with the entries
 * added below its leaf (core/session.ts) instead of reading the whole path
 * again: the same series either way (tested on every fixture grown in pieces).
 */
import type { Entry, UsageSeries } from "../model.ts";

export interface UsageFold {
  add(entry: Entry): void;
  /** The series of every entry added so far (its own arrays: later adds do not change it). */
  series(): UsageSeries;
  /** A fold that goes on from this one's state without changing it (this one's series stay as they were). */
  copy(): UsageFold;
}

export function foldUsage(fold: UsageFold, path: readonly Entry[]): UsageSeries {
  for (const entry of path) fold.add(entry);
  return fold.series();
}
