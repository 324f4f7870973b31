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

/** Who answered, in the words every surface uses beside a score: the literal reader, the endpoint's model, or the local model named with its quantization, window and runtime. */
export function readerHeading(result: { reader: string; model?: { name: string; quantization: string; contextSize: number; runtime: string } }): string {
  if (result.reader === "literal") return "facts present in context (literal reader)";
  if (result.reader === "local" && result.model) {
    const m = result.model;
    return `answered correctly by ${m.name} (${m.quantization}, ${m.contextSize.toLocaleString("en-US")}-token window, ${m.runtime})`;
  }
  return "answered correctly by the model (endpoint reader)";
}

/** "3 correct, 1 don't know, 1 confidently wrong"; empty for the literal reader, which has no verdicts. */
export function verdictSummary(verdicts: Record<Verdict, number> | undefined): string {
  return verdicts ? `${verdicts.correct} correct, ${verdicts["dont-know"]} don't know, ${verdicts.wrong} confidently wrong` : "";
}
