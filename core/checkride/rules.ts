/**
 * Rules: the standing instructions a user set (imperatives and constraints),
 * read from human prose only. A rule is a whole sentence that obliges or
 * forbids; questions, reports of what happened and pasted text are not.
 *
 * The markers are grouped by how much they need around them:
 * - obligations ("must", "make sure", "avoid", "prefer", 必須 …) are rules
 *   on their own;
 * - prohibitions ("don't", "do not") are rules when they address the agent
 *   (imperative, or "you/we don't"), not when the user reports ("I don't
 *   understand");
 * - frequency and scope words ("always", "never", "only") are rules when they
 *   open the sentence or follow a directive ("I want …", "you should …"), not
 *   when they describe ("it always seems", "I've only recently …");
 * - "should" is a rule unless it looks back ("should have") or predicts
 *   ("should work");
 * - a terse "no X!" ban is a rule.
 */
import type { TextSpan } from "../human-text.ts";

export interface RuleSpan {
  text: string;
  start: number;
  end: number;
}

const OBLIGATION =
  /\b(must|mustn't|make sure|avoid|prefer|under no circumstances|at all times|no more than|at most|at least)\b|必須|務必|一定要|禁止|請勿|不可|不要|不用|不准|只能|永遠|總是|絕不/i;
const PROHIBITION =
  /(^|[,;:(]\s*|\b(please|and|but|so|no|just|then|also|pls)\s+)(don't|dont|do not|never)\b|\b(you|we)\s+(don't|do not|shouldn't|should not|must not|never)\b|\bi\s+(don't|do not)\s+want\b|\blet's not\b/i;
/** "always/never/only" at the start of a clause, or after a directive within a few words. */
const DIRECTED_SCOPE = /(^|[,;:(]\s*)(always|never|only)\b|\b(want|would|will|should|must|please|let's|you|we)\b(\s+\S+){0,3}\s+(always|never|only)\b/i;
/** "should", and "needs to" said of the work (not "we/I/you need to", which is a task or advice). */
const SHOULD = /\b(should|shall)\b|(^|\b(?!(?:we|i|you)\b)[a-z]+\s+)needs?\s+to\b/i;
/** "should" in a subordinate clause ("whether it should", "a skill that should") states no requirement. */
const SUBORDINATE_SHOULD = /\b(whether|if|that|which|who|what|how|where|when)\b[^,;.]{0,40}\b(should|needs? to)\b/i;
/** "should" that looks back or predicts, and scope words that report. */
const NOT_NORMATIVE = /\bshould(n't)?\s+(have|work|be (fine|ok|okay|good|enough|possible|the))\b|\b(seems?|seeing|seen|happen(ed|s)?|recently|used to)\b/i;
const TERSE_BAN = /^no\s+[\w .'-]{2,40}!+$/i;
/** Questions: a question mark, or an opening interrogative. */
const QUESTION_END = /[?？]\s*[)\]"'”]*\s*$/;
const QUESTION_START =
  /^(can|could|would|will|is|are|am|do|does|did|why|what|how|where|which|who|whom|whose|when|shall|should (we|i)|isn't|aren't|doesn't|didn't|won't|wouldn't|have you|has)\b/i;

/** Fewer words than this is a fragment, not an instruction (but "no X!" is handled apart). */
export const MIN_RULE_WORDS = 3;
/** A "sentence" longer than this is a paste or a spec, not a rule a reader could quote back. */
export const MAX_RULE_CHARS = 400;

export function isRuleSentence(sentence: string): boolean {
  // Typographic apostrophes ("don’t") read as plain ones.
  const text = sentence.trim().replace(/[’‘]/g, "'");
  if (TERSE_BAN.test(text)) return true;
  if (text.length > MAX_RULE_CHARS) return false;
  const words = text.split(/\s+/).filter(Boolean).length;
  const cjk = /[\u3400-\u9fff]/.test(text);
  if (!cjk && words < MIN_RULE_WORDS) return false;
  if (QUESTION_END.test(text) || QUESTION_START.test(text)) return false;
  if (OBLIGATION.test(text) && !/\bmust\s+have\b/i.test(text)) return true;
  if (PROHIBITION.test(text)) return true;
  if (NOT_NORMATIVE.test(text)) return false;
  if (DIRECTED_SCOPE.test(text)) return true;
  return SHOULD.test(text) && !SUBORDINATE_SHOULD.test(text);
}

/** Sentences of a prose span with their offsets: split after . ! ? 。 ！ and at line ends. */
export function sentencesOf(span: TextSpan): RuleSpan[] {
  const out: RuleSpan[] = [];
  const boundary = /(?<=[.!?。！？])\s+|(?<=[。！？])/g;
  let cursor = 0;
  const push = (from: number, to: number) => {
    const piece = span.text.slice(from, to);
    const lead = piece.length - piece.trimStart().length;
    // A list marker is not part of the sentence.
    const marker = /^([-*•]|\d+[.)])\s+/.exec(piece.slice(lead))?.[0].length ?? 0;
    const text = piece.trim().slice(marker);
    if (text) out.push({ text, start: span.start + from + lead + marker, end: span.start + from + lead + marker + text.length });
  };
  for (const match of span.text.matchAll(boundary)) {
    // "e.g. x" and "i.e. y" do not end a sentence.
    if (/\b(e\.g|i\.e|etc|vs)\.$/i.test(span.text.slice(0, match.index!))) continue;
    push(cursor, match.index!);
    cursor = match.index! + match[0].length;
  }
  push(cursor, span.text.length);
  return out;
}

/** The rule sentences of some human prose, in text order. */
export function rulesInProse(prose: readonly TextSpan[]): RuleSpan[] {
  return prose.flatMap(sentencesOf).filter((sentence) => isRuleSentence(sentence.text));
}

/** For plain text (tests, memory files): one span, offsets from 0. */
export function rulesIn(text: string): string[] {
  return text
    .split("\n")
    .reduce<{ spans: TextSpan[]; at: number }>(
      (acc, line) => {
        acc.spans.push({ start: acc.at, end: acc.at + line.length, text: line });
        acc.at += line.length + 1;
        return acc;
      },
      { spans: [], at: 0 },
    )
    .spans.flatMap((span) => rulesInProse([span]).map((rule) => rule.text));
}

/** Same rule twice: equal once case, spacing and end punctuation are ignored. */
export function ruleKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[\s.!。！]+$/, "")
    .trim();
}
