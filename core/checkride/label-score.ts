/**
 * Scores extracted facts against hand labels (test/labels/*.json): per probe,
 * how many facts the extractor gave were right (precision) and how many the
 * labeller expected were found (recall). Labels point at their sources by
 * message id and character span and hold a SHA-256 of the labelled words, so
 * the sessions' own text never enters the repository.
 */
import type { Facts } from "./facts.ts";
import { THRESHOLDS } from "./probes.ts";

export interface SpanLabel {
  messageId: string;
  span: [number, number];
  sha256: string;
  note?: string;
}

export interface FixtureLabels {
  fixture: string;
  /** The format whose reader gives the message ids below. */
  format: string;
  /** How the labels were decided. */
  method: string;
  rules: SpanLabel[];
  notRules: SpanLabel[];
  /** SHA-256 of each anchor's exact text; absent when not assessed. */
  anchors?: { sha256: string; note?: string }[];
  notAnchors?: { sha256: string; note?: string }[];
  /** The last significant verification; null when the session has none; absent when not assessed. */
  verify?: { messageIds: string[]; passed: boolean; note?: string } | null;
  /** The unresolved error; null when none. */
  error?: { messageId: string; span: [number, number]; sha256: string; note?: string } | null;
  /** SHA-256 of each modified path, relative to the session's working directory. */
  files?: string[];
  /** Rules the labeller read in records the reader shows as no message: expected, and so missed. */
  unlocatedRules?: number;
}

export interface Tally {
  /** Facts given that the labels confirm. */
  right: number;
  /** Facts given. */
  given: number;
  /** Labelled facts that were found. */
  found: number;
  /** Labelled facts. */
  expected: number;
}

export const PROBES_SCORED = ["rules", "anchors", "verify", "error", "files"] as const;
export type ScoredProbe = (typeof PROBES_SCORED)[number];
/**
 * Every tally: the graded probes, and the candidates of the two probes that
 * have them, rules and anchors (precision: the share of candidates a reviewer
 * labelled; recall: the labelled facts found graded or as a candidate, the
 * recall the candidates carry).
 */
export const TALLIES = [...PROBES_SCORED, "ruleCandidates", "anchorCandidates", "errorCandidates"] as const;
export type TallyName = (typeof TALLIES)[number];
export type Scores = Record<TallyName, Tally>;

/** Anchors scored: the ones the handoff staples show (the probe asks the first 6 of them). */
export const ANCHORS_SCORED = 12;

export function emptyScores(): Scores {
  return Object.fromEntries(TALLIES.map((probe) => [probe, { right: 0, given: 0, found: 0, expected: 0 }])) as Scores;
}

export function addScores(into: Scores, from: Scores): Scores {
  for (const probe of TALLIES) for (const key of ["right", "given", "found", "expected"] as const) into[probe][key] += from[probe][key];
  return into;
}

const overlaps = (a: readonly [number, number], b: readonly [number, number]) => a[0] < b[1] && b[0] < a[1];

/** `hash` is SHA-256 hex of a UTF-8 string (sync, supplied by the caller: node:crypto in tests and scripts). */
/**
 * The forms one identifier takes in a label: a reviewer writes an issue the key reads as `#181` as
 * "Issue #181" or "PR #181", and a commit by its short or its full hash. Each is the same anchor, so
 * an extracted one matches a labelled one in any of them (the label keeps only the hash of its words).
 */
export function anchorForms(value: string): string[] {
  const ref = /^#(\d+)$/.exec(value);
  if (ref) return [value, ...["Issue", "issue", "PR", "pr", "Pull request", "pull request"].map((word) => `${word} ${value}`), `PR${value}`, `issue${value}`];
  if (/^[0-9a-f]{8,40}$/.test(value)) return [value, ...[7, 8, 9, 10, 11, 12].filter((n) => n < value.length).map((n) => value.slice(0, n))];
  return [value];
}

export function scoreFacts(facts: Facts, labels: FixtureLabels, hash: (text: string) => string): Scores {
  const scores = emptyScores();

  const rules = scores.rules;
  // A rule said again in another message (the key keeps its newest saying) is the labelled rule when its words are the label's.
  // A rule typed more than once is found at any of its sayings.
  const ruleHits = (rule: Pick<Facts["rules"][number], "messageId" | "source" | "text" | "sayings">) =>
    labels.rules.filter(
      (label) =>
        [rule.source, ...(rule.sayings ?? [])].some((source) => source && label.messageId === source.messageId && source.span && overlaps(label.span, source.span)) ||
        label.sha256 === hash(rule.source?.quote ?? rule.text),
    );
  rules.given = facts.rules.length;
  rules.right = facts.rules.filter((rule) => ruleHits(rule).length > 0).length;
  rules.expected = labels.rules.length + (labels.unlocatedRules ?? 0);
  rules.found = labels.rules.filter((label) => facts.rules.some((rule) => ruleHits(rule).includes(label))).length;

  const candidates = scores.ruleCandidates;
  const ruleCandidates = facts.ruleCandidates ?? [];
  candidates.given = ruleCandidates.length;
  candidates.right = ruleCandidates.filter((c) => ruleHits(c).length > 0).length;
  candidates.expected = rules.expected;
  candidates.found = labels.rules.filter((label) => [...facts.rules, ...ruleCandidates].some((rule) => ruleHits(rule).includes(label))).length;

  if (labels.anchors) {
    const anchors = scores.anchors;
    const good = new Set(labels.anchors.map((a) => a.sha256));
    // The labelled anchor an extracted one is, in whichever form the reviewer wrote it (anchorForms).
    const labelled = (value: string) =>
      anchorForms(value)
        .map(hash)
        .find((h) => good.has(h)) ?? hash(value);
    const shown = facts.anchors.slice(0, ANCHORS_SCORED).map((a) => labelled(a.value));
    const all = new Set(facts.anchors.map((a) => labelled(a.value)));
    anchors.given = shown.length;
    anchors.right = shown.filter((h) => good.has(h)).length;
    anchors.expected = good.size;
    anchors.found = [...good].filter((h) => all.has(h)).length;
    // Candidates as the key lists them (its first few, most mentioned first).
    const listed = (facts.anchorCandidates ?? []).slice(0, THRESHOLDS.anchorCandidatesShown).map((a) => labelled(a.value));
    const anchorCandidates = scores.anchorCandidates;
    anchorCandidates.given = listed.length;
    anchorCandidates.right = listed.filter((h) => good.has(h)).length;
    anchorCandidates.expected = good.size;
    anchorCandidates.found = [...good].filter((h) => all.has(h) || listed.includes(h)).length;
  }

  if (labels.verify !== undefined) {
    const run = facts.lastRun && facts.lastRun.passed !== undefined ? facts.lastRun : undefined;
    const right = !!run && !!labels.verify && labels.verify.messageIds.includes(run.messageId) && run.passed === labels.verify.passed;
    scores.verify = { given: run ? 1 : 0, right: right ? 1 : 0, expected: labels.verify ? 1 : 0, found: right ? 1 : 0 };
  }

  if (labels.error !== undefined) {
    const error = facts.unresolvedError;
    const label = labels.error;
    const right = !!error && !!label && error.messageId === label.messageId && !!error.source?.span && overlaps(error.source.span, label.span);
    scores.error = { given: error ? 1 : 0, right: right ? 1 : 0, expected: label ? 1 : 0, found: right ? 1 : 0 };
    // The failures offered as candidates: right when one is the labelled error's line.
    const isLabel = (c: { messageId: string; source?: { span?: [number, number] } }) =>
      !!label && c.messageId === label.messageId && !!c.source?.span && overlaps(c.source.span, label.span);
    const offered = facts.errorCandidates ?? [];
    const candidateRight = offered.filter(isLabel).length;
    scores.errorCandidates = { given: offered.length, right: candidateRight, expected: label ? 1 : 0, found: right || candidateRight > 0 ? 1 : 0 };
  }

  if (labels.files !== undefined) {
    const expected = new Set(labels.files);
    const given = facts.modifiedFiles.map(hash);
    scores.files = {
      given: given.length,
      right: given.filter((h) => expected.has(h)).length,
      expected: expected.size,
      found: [...expected].filter((h) => given.includes(h)).length,
    };
  }
  return scores;
}

export function precision(tally: Tally): number {
  return tally.given === 0 ? 1 : tally.right / tally.given;
}

export function recall(tally: Tally): number {
  return tally.expected === 0 ? 1 : tally.found / tally.expected;
}
