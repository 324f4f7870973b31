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
import { basename, containsToken, distinctiveTokens, normalizeText, saysItDoesNotKnow, tokenCoverage } from "./tokens.ts";

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
  grade(answer: string): { pass: boolean; matched: string[] };
}

const PASS_WORDS = /\b(pass(ed|es|ing)?|succeed(ed|s)?|success(ful)?|green|ok|exit(ed)? (with )?(code )?0|exit_code"?\s*:\s*0|0 fail(ed|ures?))\b/gi;
const FAIL_WORDS = /\b(fail(ed|s|ing|ure)?|error(s|ed)?|red|broke(n)?|exit(ed)? (with )?(code )?[1-9]\d*|exit_code"?\s*:\s*[1-9]\d*)\b/gi;

function outcomeFamily(answer: string): "pass" | "fail" | undefined {
  let last: { index: number; family: "pass" | "fail" } | undefined;
  for (const match of answer.matchAll(PASS_WORDS)) if (!last || match.index! > last.index) last = { index: match.index!, family: "pass" };
  for (const match of answer.matchAll(FAIL_WORDS)) if (!last || match.index! > last.index) last = { index: match.index!, family: "fail" };
  return last?.family;
}

const RULE_WORD = /\b(always|never|must|don't|do not|only|prefer|avoid|make sure)\b/i;

function itemCovered(answer: string, item: string, threshold: number = THRESHOLDS.itemCoverage): boolean {
  const tokens = distinctiveTokens(item);
  return tokens.length > 0 && tokenCoverage(answer, tokens) >= threshold;
}

function skipped(id: ProbeId, question: string, reason: string): Probe {
  return { id, question, expected: null, skipReason: reason, items: [], grade: () => ({ pass: false, matched: [] }) };
}

function guard(grade: (answer: string) => { pass: boolean; matched: string[] }) {
  return (answer: string) => (saysItDoesNotKnow(answer) ? { pass: false, matched: [] } : grade(answer));
}

export function buildProbes(facts: Facts): Probe[] {
  const probes: Probe[] = [];

  const files = facts.modifiedFiles.slice(-THRESHOLDS.filesAsked);
  probes.push(
    files.length === 0
      ? skipped("files", "Which files were created or modified in this session?", "no file was written or edited on this branch")
      : {
          id: "files",
          question: "Which files were created or modified in this session?",
          expected: files.join(", "),
          items: files,
          sources: files.flatMap((path) => (facts.fileSources?.[path] ? [facts.fileSources[path]!] : [])),
          grade: guard((answer) => {
            const normalized = normalizeText(answer);
            const matched = files.filter((path) => normalized.includes(path.toLowerCase()) || containsToken(normalized, basename(path).toLowerCase()));
            return { pass: matched.length >= Math.ceil(files.length * THRESHOLDS.filesCoverage), matched };
          }),
        },
  );

  const run = facts.lastRun;
  probes.push(
    !run || run.passed === undefined
      ? skipped("verify", "What was the last command run to check the work, and did it pass or fail?", run ? "the last command's outcome is not recorded" : "no command was run")
      : {
          id: "verify",
          question: "What was the last command run to check the work, and did it pass or fail?",
          expected: `\`${run.command}\` ${run.passed ? "passed" : "failed"}${run.exitCode !== undefined ? ` (exit ${run.exitCode})` : ""}`,
          items: [run.command, run.passed ? "passed" : "failed"],
          sourceMessageId: run.messageId,
          sources: run.source ? [run.source] : undefined,
          grade: guard((answer) => {
            const tokens = distinctiveTokens(run.command);
            const commandSeen = tokens.length > 0 && tokenCoverage(answer, tokens) >= THRESHOLDS.verifyCommandCoverage;
            const family = outcomeFamily(answer);
            const right = family === (run.passed ? "pass" : "fail");
            return { pass: commandSeen && right, matched: [...(commandSeen ? [run.command] : []), ...(right ? [family!] : [])] };
          }),
        },
  );

  const error = facts.unresolvedError;
  if (!error) probes.push(skipped("error", "What error is still unresolved?", "the newest relevant run did not fail"));
  else {
    const tokens = distinctiveTokens(error.text)
      .filter((t) => !/^\d+$/.test(t))
      .sort((a, b) => b.length - a.length)
      .slice(0, THRESHOLDS.errorTokens);
    probes.push({
      id: "error",
      question: "What error is still unresolved?",
      expected: error.text,
      items: tokens,
      sourceMessageId: error.messageId,
      sources: error.source ? [error.source] : undefined,
      grade: guard((answer) => {
        const normalized = normalizeText(answer);
        const matched = tokens.filter((t) => containsToken(normalized, t));
        return { pass: tokens.length > 0 && matched.length >= Math.ceil(tokens.length * THRESHOLDS.errorCoverage), matched };
      }),
    });
  }

  const request = facts.latestRequest;
  if (!request) probes.push(skipped("intent", "What did the user ask for most recently?", "no user request on this branch"));
  else if (distinctiveTokens(request.text).length === 0) {
    probes.push(skipped("intent", "What did the user ask for most recently?", `the latest request ("${request.text.slice(0, 40)}") has no distinctive words to check`));
  } else {
    const tokens = distinctiveTokens(request.text).slice(0, THRESHOLDS.intentTokens);
    probes.push({
      id: "intent",
      question: "What did the user ask for most recently? Quote it if you can.",
      expected: request.text,
      items: tokens,
      sourceMessageId: request.messageId,
      sources: request.source ? [request.source] : undefined,
      grade: guard((answer) => {
        const normalized = normalizeText(answer);
        const matched = tokens.filter((t) => containsToken(normalized, t));
        return { pass: tokens.length > 0 && matched.length / tokens.length >= THRESHOLDS.intentCoverage, matched };
      }),
    });
  }

  const anchorFacts = facts.anchors.slice(0, THRESHOLDS.anchorsAsked);
  const anchors = anchorFacts.map((a) => a.value);
  probes.push(
    anchors.length === 0
      ? skipped("anchors", "Which URLs, commits, issue or PR numbers and error codes matter here?", "no anchors on this branch")
      : {
          id: "anchors",
          question: "Which URLs, commits, issue or PR numbers and error codes matter here?",
          expected: anchors.join(", "),
          items: anchors,
          sources: anchorFacts.flatMap((a) => (a.source ? [a.source] : [])),
          grade: guard((answer) => {
            const normalized = normalizeText(answer);
            const matched = anchors.filter((a) => normalized.includes(a.toLowerCase()));
            return { pass: matched.length >= Math.ceil(anchors.length * THRESHOLDS.anchorsCoverage), matched };
          }),
        },
  );

  // Rules are kept newest last; the newest few are asked.
  const rules = facts.rules.slice(-THRESHOLDS.rulesAsked);
  probes.push(
    rules.length === 0
      ? skipped("rules", "Which rules or commitments did the user set?", "the user set no rule-shaped sentence")
      : {
          id: "rules",
          question: "Which rules or commitments did the user set? Quote them.",
          expected: rules.map((r) => r.text).join(" | "),
          items: rules.map((r) => r.text),
          sourceMessageId: rules[rules.length - 1]!.messageId,
          sources: rules.flatMap((r) => (r.source ? [r.source] : [])),
          grade: guard((answer) => {
            const normalized = normalizeText(answer);
            const matched = rules
              .filter((rule) => {
                const word = RULE_WORD.exec(rule.text)?.[0]?.toLowerCase();
                return (!word || normalized.includes(word)) && itemCovered(answer, rule.text);
              })
              .map((r) => r.text);
            return { pass: matched.length >= Math.ceil(rules.length * THRESHOLDS.rulesCoverage), matched };
          }),
        },
  );

  const memory = facts.memory;
  const memoryProbe = (id: ProbeId, question: string, items: string[] | undefined, what: string): Probe =>
    !memory
      ? skipped(id, question, "needs a memory.md")
      : !items || items.length === 0
        ? skipped(id, question, `memory.md has no ${what}`)
        : {
            id,
            question,
            expected: items.join(" | "),
            items,
            grade: guard((answer) => {
              const matched = items.filter((item) => itemCovered(answer, item));
              return { pass: matched.length >= Math.ceil(items.length * THRESHOLDS.memoryCoverage), matched };
            }),
          };
  probes.push(memoryProbe("done", "What has already been done?", memory?.done, "checked Plan items"));
  probes.push(memoryProbe("next", "What is the next step?", memory?.next.length ? memory.next : memory?.plan, "Next section or open Plan items"));
  probes.push(memoryProbe("constraints", "Which decisions or constraints must be kept?", memory?.decisions, "Decisions section"));
  return probes;
}
