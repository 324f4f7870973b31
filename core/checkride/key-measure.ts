/**
 * How far to trust the answer key, probe by probe: its precision and recall
 * on the project's measure set, sessions labelled blind by reviewers who never
 * read this code (docs/blind-set.md). Written by `npm run facts -- --write`
 * from the labels and the sessions, never by hand; the score card shows it
 * beside each probe so that a fact the key is often wrong about is read as
 * the key's reading, not the truth.
 */
import measured from "./key-measure.json" with { type: "json" };
import { precision, recall, type Tally, type TallyName } from "./label-score.ts";

export interface KeyMeasure {
  /** The blind set measured (test/labels/<set>). */
  set: string;
  sessions: number;
  /** The day it was measured (ISO date). */
  measured: string;
  /** What re-runs it. */
  command: string;
  probes: Record<TallyName, Tally>;
}

export const KEY_MEASURE: KeyMeasure = measured as KeyMeasure;

/** The targets issue #27 sets: a graded probe right 9 times in 10, and 8 in 10 of what a reviewer expects found. */
export const PRECISION_TARGET = 0.9;
export const RECALL_TARGET = 0.8;

export interface ProbeTrust {
  precision: number;
  recall: number;
  /** Facts this probe gave on the set: 0 means it grades none by itself there (its precision says nothing). */
  given: number;
  /** Of those, right; and of the facts a reviewer expected, how many and how many found (counts, shown beside the shares: a set is small). */
  right: number;
  expected: number;
  found: number;
  /** For a probe with candidates (rules, anchors, the error): the reviewer's facts found graded or as a candidate. */
  candidatesFound?: number;
  /** For a probe with candidates: the share of a reviewer's facts found graded or as a candidate (the recall candidates carry). */
  candidatesRecall?: number;
  /** Whether both targets are met. */
  meets: boolean;
  /** One line for a tooltip: the figures, their counts, the set and how to re-run them. */
  explanation: string;
}

/** The tally of each probe's candidates. */
const CANDIDATES_OF: Partial<Record<string, TallyName>> = { rules: "ruleCandidates", anchors: "anchorCandidates", error: "errorCandidates" };

/** The measure of one probe's facts; null for a probe the labels do not score (intent). */
export function probeTrust(probe: string, measure: KeyMeasure = KEY_MEASURE): ProbeTrust | null {
  const tally = (measure.probes as Record<string, Tally | undefined>)[probe];
  if (!tally || (tally.given === 0 && tally.expected === 0)) return null;
  const p = precision(tally);
  const r = recall(tally);
  const candidatesTally = CANDIDATES_OF[probe];
  const candidates = candidatesTally ? (measure.probes as Partial<Record<TallyName, Tally>>)[candidatesTally] : undefined;
  const candidatesRecall = candidates ? recall(candidates) : undefined;
  const gave =
    tally.given === 0
      ? `this probe graded none of the ${tally.expected} facts a reviewer expected by itself`
      : `${tally.right} of the ${tally.given} facts this probe gave were right (precision ${p.toFixed(2)}), and it found ${tally.found} of the ${tally.expected} a reviewer expected (recall ${r.toFixed(2)})`;
  const asCandidates = candidates && candidatesRecall !== undefined ? `; as candidates it found ${candidates.found} of them (${candidatesRecall.toFixed(2)})` : "";
  return {
    precision: p,
    recall: r,
    given: tally.given,
    right: tally.right,
    expected: tally.expected,
    found: tally.found,
    candidatesRecall,
    ...(candidates ? { candidatesFound: candidates.found } : {}),
    meets: tally.given > 0 && p >= PRECISION_TARGET && r >= RECALL_TARGET,
    explanation: `On ${measure.sessions} real sessions labelled blind (${measure.set}, ${measure.measured}): ${gave}${asCandidates}; targets ${PRECISION_TARGET} and ${RECALL_TARGET}. Re-run: ${measure.command}.`,
  };
}
