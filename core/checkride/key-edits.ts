/**
 * The user's edits of the answer key: a fact struck out, a fact added to a
 * probe. The probes stay data: an edit rebuilds a probe's items, checks and
 * "need" with the same thresholds, and the one grader applies them.
 */
import { grade, required, type Check, type Grading } from "./grade.ts";
import { restated, THRESHOLDS, type Candidate, type Probe, type ProbeId } from "./probes.ts";
import type { FactSource } from "./source.ts";

export interface KeyEdits {
  /** Facts struck out, by probe and the fact's text. */
  struck: { probe: string; fact: string }[];
  /** Facts the user added, by probe. */
  added: { probe: string; text: string }[];
}

/** A candidate as the key shows it: struck when the user dismissed it. */
export type ShownCandidate = Candidate & { struck?: true };

/** One fact of the answer key, with the checks an answer must meet for it. */
export interface KeyFact {
  text: string;
  source?: FactSource;
  /** Added by the user (not from the record). */
  added?: boolean;
  checks: Check[];
  need: number;
}

/** Probes whose key is a list of separate facts, and the share of them an answer must meet. */
const LIST_COVERAGE: Partial<Record<ProbeId, number>> = {
  files: THRESHOLDS.filesCoverage,
  anchors: THRESHOLDS.anchorsCoverage,
  rules: THRESHOLDS.rulesCoverage,
  done: THRESHOLDS.memoryCoverage,
  next: THRESHOLDS.memoryCoverage,
  constraints: THRESHOLDS.memoryCoverage,
};

export function isListProbe(id: string): boolean {
  return id in LIST_COVERAGE;
}

export function hasEdits(edits: KeyEdits | undefined): edits is KeyEdits {
  return !!edits && (edits.struck.length > 0 || edits.added.length > 0);
}

/** The facts of a probe's key: one per item for a list probe, else the one fact its key states. */
export function keyFactsOf(probe: Probe): KeyFact[] {
  if (probe.expected === null) return [];
  const sources = probe.sources ?? [];
  if (isListProbe(probe.id)) {
    const aligned = sources.length === probe.items.length;
    return probe.items.map((text, i) => ({ text, ...(aligned ? { source: sources[i] } : {}), checks: [probe.grading.checks[i]!], need: 1 }));
  }
  return [{ text: probe.expected, ...(sources[0] ? { source: sources[0] } : {}), checks: probe.grading.checks, need: probe.grading.need }];
}

/** The check an added fact gets: the probe's own kind of match. */
function checkFor(id: string, text: string): Check {
  if (id === "files") return { kind: "path", item: text };
  if (id === "anchors") return { kind: "verbatim", item: text };
  return restated(text, id === "rules");
}

/** Whether an answer's matched items meet one fact. */
export function factMet(fact: Pick<KeyFact, "checks" | "need">, matched: readonly string[]): boolean {
  return fact.checks.filter((check) => matched.includes(check.item)).length >= fact.need;
}

/** A probe with the user's edits applied (unchanged when none concern it). */
export function applyKeyEdits(probe: Probe, edits: KeyEdits | undefined): Probe & { facts: KeyFact[]; edited: boolean; candidates?: ShownCandidate[] } {
  const original = keyFactsOf(probe);
  const struck = new Set((edits?.struck ?? []).filter((s) => s.probe === probe.id).map((s) => s.fact));
  const candidateByText = new Map((probe.candidates ?? []).map((c) => [c.text, c]));
  const added = (edits?.added ?? [])
    .filter((a) => a.probe === probe.id && a.text.trim() !== "")
    .map((a): KeyFact => {
      const text = a.text.trim();
      // An accepted candidate keeps the place it came from.
      const source = candidateByText.get(text)?.source;
      return { text, ...(source ? { source } : {}), added: true, checks: [checkFor(probe.id, text)], need: 1 };
    });
  // Candidates the user accepted are facts now; the ones struck stay listed, struck, so they can be put back.
  const candidates = (probe.candidates ?? []).filter((c) => !added.some((a) => a.text === c.text)).map((c): ShownCandidate => (struck.has(c.text) ? { ...c, struck: true } : c));
  const shownCandidates = { candidates: candidates.length ? candidates : undefined };
  if (struck.size === 0 && added.length === 0) return { ...probe, facts: original, edited: false };
  const facts = [...original.filter((f) => !struck.has(f.text)), ...added];
  if (facts.length === 0) {
    const reason = original.length > 0 ? "every fact was struck out of the key by the user" : (probe.skipReason ?? "no ground truth");
    return {
      ...probe,
      expected: null,
      skipReason: reason,
      items: [],
      sources: [],
      grading: { checks: [], need: 1 },
      grade: () => ({ pass: false, matched: [] }),
      facts: [],
      edited: true,
      ...shownCandidates,
    };
  }
  const list = isListProbe(probe.id);
  const grading: Grading = {
    checks: facts.flatMap((f) => f.checks),
    need: list ? required(facts.length, LIST_COVERAGE[probe.id as ProbeId]!) : facts.reduce((sum, f) => sum + f.need, 0),
  };
  const keptOriginal = facts.some((f) => !f.added);
  const items = list ? facts.map((f) => f.text) : [...(keptOriginal ? probe.items : []), ...facts.filter((f) => f.added).map((f) => f.text)];
  return {
    ...probe,
    expected: facts.map((f) => f.text).join(list && probe.id !== "rules" ? ", " : " | "),
    skipReason: undefined,
    items,
    sources: facts.flatMap((f) => (f.source ? [f.source] : [])),
    grading,
    grade: (answer: string) => grade(grading, answer),
    facts,
    edited: true,
    ...shownCandidates,
  };
}
