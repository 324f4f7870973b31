/**
 * The probes: fixed questions, each with its answer key and pass rule. A
 * probe without ground truth is skipped, never guessed. Grading looks only at
 * that probe's own answer.
 *
 * Pass rules (thresholds live here, beside the code that applies them):
 * - files:       ≥ 80% of up to 10 modified paths named (the basename counts).
 * - verify:      a token of the command (≥ half of its distinctive tokens) and
 *                the right outcome family, the last outcome word deciding.
 * - error:       ≥ half of the error's (up to 4) most distinctive tokens.
 * - intent:      ≥ 60% of the latest request's distinctive tokens (up to 16).
 * - anchors:     ≥ half of the top 6 anchors, each verbatim.
 * - rules:       ≥ half of the newest 6 rules, a rule counting when its rule
 *                word (always/never/must/…) and ≥ 60% of its tokens are there.
 * - done, next, constraints (memory.md only): ≥ half of the items, each by
 *                ≥ 60% of its tokens.
 * An answer that says it does not know passes nothing.
 */
import type { Facts } from "./facts.ts";
import type { FactSource } from "./source.ts";
import { grade, required, type Check, type Grading } from "./grade.ts";
import { distinctiveTokens } from "./tokens.ts";

/**
 * Every pass threshold of the grader, named, with the reason for its value.
 * test/core/checkride/thresholds.test.ts pins each at its boundary.
 */
export const THRESHOLDS = {
  /** Newest modified paths asked for: more is a list nobody recalls, fewer misses the work. */
  filesAsked: 10,
  /** Share of those paths an answer must name: most, allowing one or two slips in a long list. */
  filesCoverage: 0.8,
  /** Share of the verifying command's distinctive tokens: enough to tell `npm test` from `npm run build`. */
  verifyCommandCoverage: 0.5,
  /** The error's most distinctive tokens checked: the longest few name it; more adds noise. */
  errorTokens: 4,
  /** Share of those an answer must contain. */
  errorCoverage: 0.5,
  /** Distinctive tokens of the latest request checked: a long request is judged on its opening. */
  intentTokens: 16,
  /** Share of them an answer must contain: the gist, not the exact words. */
  intentCoverage: 0.6,
  /** Top anchors asked for (most mentioned first). */
  anchorsAsked: 6,
  /** Share of them an answer must quote verbatim. */
  anchorsCoverage: 0.5,
  /** Anchor candidates listed (most mentioned first): a session that pastes a web page holds hundreds of links. */
  anchorCandidatesShown: 60,
  /** Newest rules asked for. */
  rulesAsked: 6,
  /** Share of rules an answer must restate. */
  rulesCoverage: 0.5,
  /** Share of a rule's (or memory item's) distinctive tokens that count as restating it. */
  itemCoverage: 0.6,
  /** Share of memory items (done, next, constraints) an answer must restate. */
  memoryCoverage: 0.5,
} as const;

export const PROBE_IDS = ["files", "verify", "error", "intent", "anchors", "rules", "done", "next", "constraints"] as const;
export type ProbeId = (typeof PROBE_IDS)[number];

export interface Probe {
  id: ProbeId;
  question: string;
  /** The answer key as shown to people; null when there is no ground truth. */
  expected: string | null;
  /** Why the probe is skipped (no ground truth). */
  skipReason?: string;
  /** The items a reader must produce (paths, tokens, rules …). */
  items: string[];
  /** The source message of the fact, for "jump to evidence". */
  sourceMessageId?: string;
  /** Where each item came from (same order as `items` where the items are facts). */
  sources?: FactSource[];
  /** What an answer must meet: the data the one grader (grade.ts) applies. */
  grading: Grading;
  grade(answer: string): { pass: boolean; matched: string[] };
  /** Facts the extractor is not sure of, each with why: shown beside the key, graded only once the user accepts one. */
  candidates?: Candidate[];
}

export interface Candidate {
  text: string;
  source?: FactSource;
  why: string;
}

const RULE_WORD = /\b(always|never|must|don't|do not|only|prefer|avoid|make sure)\b/i;

function skipped(id: ProbeId, question: string, reason: string): Probe {
  const grading: Grading = { checks: [], need: 1 };
  return { id, question, expected: null, skipReason: reason, items: [], grading, grade: () => ({ pass: false, matched: [] }) };
}

function asked(probe: Omit<Probe, "grade">): Probe {
  return { ...probe, grade: (answer: string) => grade(probe.grading, answer) };
}

/** A check that an item is restated: most of its distinctive tokens, and its rule word when it has one. */
export function restated(item: string, withRuleWord: boolean): Check {
  const word = withRuleWord ? RULE_WORD.exec(item)?.[0]?.toLowerCase() : undefined;
  return { kind: "tokens", item, share: THRESHOLDS.itemCoverage, ...(word ? { word } : {}) };
}

export function buildProbes(facts: Facts): Probe[] {
  const probes: Probe[] = [];

  const files = facts.modifiedFiles.slice(-THRESHOLDS.filesAsked);
  const filesQuestion = "Which files were created or modified in this session?";
  probes.push(
    files.length === 0
      ? skipped("files", filesQuestion, "no file was written or edited on this branch")
      : asked({
          id: "files",
          question: filesQuestion,
          expected: files.join(", "),
          items: files,
          sources: files.flatMap((path) => (facts.fileSources?.[path] ? [facts.fileSources[path]!] : [])),
          grading: { checks: files.map((item) => ({ kind: "path", item })), need: required(files.length, THRESHOLDS.filesCoverage) },
        }),
  );

  const run = facts.lastRun;
  const verifyQuestion = "What was the last command run to check the work, and did it pass or fail?";
  probes.push(
    !run || run.passed === undefined
      ? skipped("verify", verifyQuestion, run ? "the last command's outcome is not recorded" : "no command was run")
      : asked({
          id: "verify",
          question: verifyQuestion,
          expected: `\`${run.command}\` ${run.passed ? "passed" : "failed"}${run.exitCode !== undefined ? ` (exit ${run.exitCode})` : ""}`,
          items: [run.command, run.passed ? "passed" : "failed"],
          sourceMessageId: run.messageId,
          sources: run.source ? [run.source] : undefined,
          grading: {
            checks: [
              { kind: "tokens", item: run.command, share: THRESHOLDS.verifyCommandCoverage },
              { kind: "outcome", item: run.passed ? "pass" : "fail" },
            ],
            need: 2,
          },
        }),
  );

  const error = facts.unresolvedError;
  const errorCandidates: Candidate[] = (facts.errorCandidates ?? []).map((c) => ({ text: c.text, source: c.source, why: c.why }));
  const withErrorCandidates = errorCandidates.length ? { candidates: errorCandidates } : {};
  if (!error)
    probes.push({
      ...skipped(
        "error",
        "What error is still unresolved?",
        errorCandidates.length ? "the last check did not fail; accept a failure the session never ran again to grade it" : "the newest relevant run did not fail",
      ),
      ...withErrorCandidates,
    });
  else {
    const tokens = distinctiveTokens(error.text)
      .filter((t) => !/^\d+$/.test(t))
      .sort((a, b) => b.length - a.length)
      .slice(0, THRESHOLDS.errorTokens);
    probes.push(
      asked({
        ...withErrorCandidates,
        id: "error",
        question: "What error is still unresolved?",
        expected: error.text,
        items: tokens,
        sourceMessageId: error.messageId,
        sources: error.source ? [error.source] : undefined,
        grading: { checks: tokens.map((item) => ({ kind: "token", item })), need: required(tokens.length, THRESHOLDS.errorCoverage) },
      }),
    );
  }

  const request = facts.latestRequest;
  if (!request) probes.push(skipped("intent", "What did the user ask for most recently?", "no user request on this branch"));
  else if (distinctiveTokens(request.text).length === 0) {
    probes.push(skipped("intent", "What did the user ask for most recently?", `the latest request ("${request.text.slice(0, 40)}") has no distinctive words to check`));
  } else {
    const tokens = distinctiveTokens(request.text).slice(0, THRESHOLDS.intentTokens);
    probes.push(
      asked({
        id: "intent",
        question: "What did the user ask for most recently? Quote it if you can.",
        expected: request.text,
        items: tokens,
        sourceMessageId: request.messageId,
        sources: request.source ? [request.source] : undefined,
        grading: { checks: tokens.map((item) => ({ kind: "token", item })), need: required(tokens.length, THRESHOLDS.intentCoverage) },
      }),
    );
  }

  const anchorFacts = facts.anchors.slice(0, THRESHOLDS.anchorsAsked);
  const anchors = anchorFacts.map((a) => a.value);
  const anchorsQuestion = "Which URLs, commits, issue or PR numbers and error codes matter here?";
  const anchorCandidates: Candidate[] = (facts.anchorCandidates ?? []).slice(0, THRESHOLDS.anchorCandidatesShown).map((a) => ({ text: a.value, source: a.source, why: a.why }));
  const withAnchorCandidates = anchorCandidates.length ? { candidates: anchorCandidates } : {};
  const noAnchors = anchorCandidates.length === 0 ? "no anchors on this branch" : "no commit or error code the extractor is sure of; accept a candidate to grade it";
  probes.push(
    anchors.length === 0
      ? { ...skipped("anchors", anchorsQuestion, noAnchors), ...withAnchorCandidates }
      : asked({
          ...withAnchorCandidates,
          id: "anchors",
          question: anchorsQuestion,
          expected: anchors.join(", "),
          items: anchors,
          sources: anchorFacts.flatMap((a) => (a.source ? [a.source] : [])),
          grading: { checks: anchors.map((item) => ({ kind: "verbatim", item })), need: required(anchors.length, THRESHOLDS.anchorsCoverage) },
        }),
  );

  // Rules are kept newest last; the newest few are asked.
  const rules = facts.rules.slice(-THRESHOLDS.rulesAsked);
  const candidates: Candidate[] = facts.ruleCandidates.map((c) => ({ text: c.text, source: c.source, why: c.why }));
  const noRules = candidates.length === 0 ? "the user set no rule-shaped sentence" : "no rule the extractor is sure of; accept a candidate to grade it";
  probes.push(
    rules.length === 0
      ? { ...skipped("rules", "Which rules or commitments did the user set?", noRules), ...(candidates.length ? { candidates } : {}) }
      : asked({
          ...(candidates.length ? { candidates } : {}),
          id: "rules",
          question: "Which rules or commitments did the user set? Quote them.",
          expected: rules.map((r) => r.text).join(" | "),
          items: rules.map((r) => r.text),
          sourceMessageId: rules[rules.length - 1]!.messageId,
          sources: rules.flatMap((r) => (r.source ? [r.source] : [])),
          grading: { checks: rules.map((r) => restated(r.text, true)), need: required(rules.length, THRESHOLDS.rulesCoverage) },
        }),
  );

  const memory = facts.memory;
  const memoryProbe = (id: ProbeId, question: string, items: string[] | undefined, what: string): Probe =>
    !memory
      ? skipped(id, question, "needs a memory.md")
      : !items || items.length === 0
        ? skipped(id, question, `memory.md has no ${what}`)
        : asked({
            id,
            question,
            expected: items.join(" | "),
            items,
            grading: { checks: items.map((item) => restated(item, false)), need: required(items.length, THRESHOLDS.memoryCoverage) },
          });
  probes.push(memoryProbe("done", "What has already been done?", memory?.done, "checked Plan items"));
  probes.push(memoryProbe("next", "What is the next step?", memory?.next.length ? memory.next : memory?.plan, "Next section or open Plan items"));
  probes.push(memoryProbe("constraints", "Which decisions or constraints must be kept?", memory?.decisions, "Decisions section"));
  return probes;
}
