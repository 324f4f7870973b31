/**
 * The paper's measure for a model reader: an answer is correct (it meets the
 * key), "don't know" (it says so, or says nothing), or confidently wrong (it
 * asserts something the key does not hold). A wrong answer misleads the next
 * agent; a "don't know" only leaves it asking. The literal reader has no
 * verdicts: it quotes the context, it never asserts.
 */
import { saysItDoesNotKnow } from "./tokens.ts";

export type Verdict = "correct" | "dont-know" | "wrong";

export const VERDICT_LABELS: Record<Verdict, string> = { correct: "correct", "dont-know": "don't know", wrong: "confidently wrong" };

export function verdictOf(pass: boolean, answer: string): Verdict {
  if (pass) return "correct";
  return saysItDoesNotKnow(answer) ? "dont-know" : "wrong";
}

/** Counts of each verdict over graded probes. */
export function verdictCounts(verdicts: readonly (Verdict | undefined)[]): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { correct: 0, "dont-know": 0, wrong: 0 };
  for (const verdict of verdicts) if (verdict) counts[verdict]++;
  return counts;
}
