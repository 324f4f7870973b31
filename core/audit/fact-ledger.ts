/**
 * The one count of a compaction's facts, from which every screen, the
 * report and `audit --json` take theirs: each probe asked is kept (present
 * after), fell out at this compaction (present before, missing after) or was
 * already gone before it (an earlier compaction dropped it), so the three
 * always add up to the facts asked. A list probe that passes with some of
 * its items missing is kept, with those items named ("passed, 2 of 9 files
 * missing"), never counted as facts of their own.
 */
import type { CheckrideResult, ProbeResult } from "../checkride/run.ts";

export type FactFate = "kept" | "fell-out" | "gone-before";

export interface ProbeFate {
  probe: string;
  fate: FactFate;
  /** The fact as the key states it. */
  fact: string;
  /** Items of the key present before and missing after (list probes; empty for one-fact probes). */
  missingItems: string[];
  /** How many items the probe's key holds. */
  items: number;
}

export interface FactLedger {
  asked: number;
  kept: number;
  fellOut: number;
  goneBefore: number;
  probes: ProbeFate[];
}

const graded = (probe: ProbeResult | undefined) => probe?.status === "pass" || probe?.status === "fail";

/** `before` and `after`: the literal reader on the contexts either side of the compaction, over the same facts. */
export function factLedger(before: CheckrideResult, after: CheckrideResult): FactLedger {
  const probes: ProbeFate[] = [];
  for (const afterProbe of after.probes) {
    if (!graded(afterProbe)) continue;
    const beforeProbe = before.probes.find((p) => p.id === afterProbe.id);
    const fate: FactFate = afterProbe.status === "pass" ? "kept" : beforeProbe?.status === "pass" ? "fell-out" : "gone-before";
    const stillThere = new Set(afterProbe.matched);
    const items = afterProbe.facts?.length ?? 1;
    const missingItems = items > 1 ? (beforeProbe?.matched ?? []).filter((item) => !stillThere.has(item)) : [];
    probes.push({ probe: afterProbe.id, fate, fact: afterProbe.expected ?? "", missingItems, items });
  }
  const count = (fate: FactFate) => probes.filter((p) => p.fate === fate).length;
  return { asked: probes.length, kept: count("kept"), fellOut: count("fell-out"), goneBefore: count("gone-before"), probes };
}

/** "kept, 2 of 9 items missing" / "fell out" / "already gone before this compaction": one probe's line, the same on every screen. */
export function probeFateText(probe: ProbeFate): string {
  if (probe.fate === "gone-before") return "already gone before this compaction";
  if (probe.fate === "fell-out") return "fell out";
  return probe.missingItems.length ? `kept, ${probe.missingItems.length} of ${probe.items} items missing` : "kept";
}

/** Each probe in plain words, for the presenter and the dropped panel. */
const PROBE_NAMES: Record<string, string> = {
  files: "the files changed",
  verify: "the last check and its outcome",
  error: "the unresolved error",
  intent: "what the user asked",
  anchors: "the exact values (ids, versions, hashes)",
  rules: "the user's standing rules",
  done: "what is done",
  next: "what comes next",
  constraints: "the constraints",
};

export function probeName(probe: string): string {
  return PROBE_NAMES[probe] ?? probe;
}

/**
 * Why the audit's score at a compaction and the checkride's score of the
 * same file differ: said wherever both can be seen (the dropped panel, the
 * report, the CLI's audit).
 */
export const AUDIT_VS_CHECKRIDE =
  "The audit scores each compaction at its moment, against the facts known then (the branch up to it); the checkride scores the session as it stands now, against every fact the whole branch holds. They differ whenever the session went on after the compaction.";
