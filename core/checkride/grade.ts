/**
 * The one grader. A probe is data: the checks an answer must meet (each a
 * kind of match against one item of the answer key) and how many of them it
 * must meet. Grading looks only at that probe's own answer; an answer that
 * says it does not know passes nothing.
 */
import { basename, containsToken, distinctiveTokens, normalizeText, saysItDoesNotKnow, tokenCoverage } from "./tokens.ts";

export type Check =
  /** A path, named in full or by its basename. */
  | { kind: "path"; item: string }
  /** A value quoted verbatim (case-insensitive): anchors. */
  | { kind: "verbatim"; item: string }
  /** One distinctive token, as a whole word. */
  | { kind: "token"; item: string }
  /** A share of an item's distinctive tokens, and its rule word when it has one. */
  | { kind: "tokens"; item: string; share: number; word?: string }
  /** The outcome family the answer's last outcome word names. */
  | { kind: "outcome"; item: "pass" | "fail" };

export interface Grading {
  checks: Check[];
  /** How many checks an answer must meet. */
  need: number;
}

/** The count a share of `total` asks for: at least that share, rounded up (half of 5 is 3). */
export function required(total: number, share: number): number {
  return Math.ceil(total * share);
}

const PASS_WORDS = /\b(pass(ed|es|ing)?|succeed(ed|s)?|success(ful)?|green|ok|exit(ed)? (with )?(code )?0|exit_code"?\s*:\s*0|0 fail(ed|ures?))\b/gi;
const FAIL_WORDS = /\b(fail(ed|s|ing|ure)?|error(s|ed)?|red|broke(n)?|exit(ed)? (with )?(code )?[1-9]\d*|exit_code"?\s*:\s*[1-9]\d*)\b/gi;

/** The family of the answer's last outcome word: "failed at first, then passed" passed. */
export function outcomeFamily(answer: string): "pass" | "fail" | undefined {
  let last: { index: number; family: "pass" | "fail" } | undefined;
  for (const match of answer.matchAll(PASS_WORDS)) if (!last || match.index! > last.index) last = { index: match.index!, family: "pass" };
  for (const match of answer.matchAll(FAIL_WORDS)) if (!last || match.index! > last.index) last = { index: match.index!, family: "fail" };
  return last?.family;
}

function meets(check: Check, answer: string, normalized: string): boolean {
  switch (check.kind) {
    case "path":
      return normalized.includes(check.item.toLowerCase()) || containsToken(normalized, basename(check.item).toLowerCase());
    case "verbatim":
      return normalized.includes(check.item.toLowerCase());
    case "token":
      return containsToken(normalized, check.item);
    case "tokens": {
      if (check.word && !normalized.includes(check.word)) return false;
      const tokens = distinctiveTokens(check.item);
      return tokens.length > 0 && tokenCoverage(answer, tokens) >= check.share;
    }
    case "outcome":
      return outcomeFamily(answer) === check.item;
  }
}

export function grade(grading: Grading, answer: string): { pass: boolean; matched: string[] } {
  if (saysItDoesNotKnow(answer)) return { pass: false, matched: [] };
  const normalized = normalizeText(answer);
  const matched = grading.checks.filter((check) => meets(check, answer, normalized)).map((check) => check.item);
  return { pass: grading.checks.length > 0 && matched.length >= grading.need, matched };
}
