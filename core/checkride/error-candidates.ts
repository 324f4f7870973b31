/**
 * Failures the session may have left open, offered as candidates for the unresolved error. The graded
 * error is the last verification's, when it failed (runs.ts); reviewers also name the newest failure
 * of any tool that nothing later ran again successfully (a scaffold that could not fetch, a patch that
 * did not apply, a `command not found`). Taken as the graded error, that reading was right 7 times in
 * 38 on the dev sets (it also names one where the reviewer named none), so it is shown, with why, and
 * graded only once the user accepts one (docs/blind-set.md, round 11).
 */
import { textOf, type Message } from "../model.ts";
import { namedErrorLineOf } from "../signals.ts";
import type { ShellRun } from "./runs.ts";
import { sourceIn, type FactSource } from "./source.ts";
import { commandsOf, modifiedPathsOf } from "./tool-calls.ts";
import { commandSteps, significantPart } from "./verify.ts";

export interface ErrorCandidate {
  text: string;
  command: string;
  messageId: string;
  source: FactSource;
  why: string;
}

/** How many are offered, newest first: the newest failures are the ones a reviewer weighs. */
export const ERROR_CANDIDATES_SHOWN = 3;

/** Commands whose failure reports an empty search or a missing path while looking around, not a failure of the work. */
const LOOKING_AROUND =
  /^(grep|egrep|rg|find|ls|dir|cat|head|tail|test|\[|which|where|command|type|stat|file|diff|wc|sed\s+-n|nl|awk|jq|git\s+(diff|status|log|show|grep|rev-parse|ls-files|branch)|Get-ChildItem|Get-Content|Select-String|Test-Path)\b/i;

/** A call the user denied or the harness cancelled before it ran (Gemini CLI's `cancelled`, Claude Code's rejection). */
export function neverRan(result: Message): boolean {
  if (result.meta.status === "cancelled") return true;
  return /^\s*(The user doesn't want to proceed with this tool use|\[Request interrupted by user for tool use\])/.test(textOf(result));
}

interface Outcome {
  isError?: boolean;
}

interface Failure {
  at: number;
  key: string;
  text: string;
  command: string;
  result: Message;
  why: string;
}

/**
 * The newest failures with an error line that no later success of the same command (or of the same tool
 * on the same file) followed, the graded error's own left out.
 */
export function errorCandidates(
  branch: readonly Message[],
  runs: readonly ShellRun[],
  outcomes: ReadonlyMap<string, { outcome: Outcome; message: Message }>,
  graded: { messageId: string; text: string } | undefined,
): ErrorCandidate[] {
  const order = new Map(branch.map((message, i) => [message.id, i]));
  const byId = new Map(branch.map((message) => [message.id, message]));
  const failures: Failure[] = [];
  const successes: { at: number; key: string }[] = [];
  runs.forEach((run, n) => {
    const at = (order.get(run.source.messageId) ?? 0) + n / 1e6;
    const key = commandKey(run.command);
    const result = byId.get(run.messageId);
    if (run.passed === false && run.errorLine && result && !lookingAround(run.command))
      failures.push({
        at,
        key,
        text: run.errorLine,
        command: run.command,
        result,
        why: "a command that failed, and no later run of it passed: may still be open, or the agent moved past it",
      });
    else if (run.passed !== false && !run.pending) successes.push({ at, key });
  });
  branch.forEach((message, i) => {
    for (const block of message.blocks) {
      if (block.type !== "toolCall" || commandsOf(block).length > 0) continue;
      const result = outcomes.get(block.id);
      if (!result) continue;
      const key = `${block.name.toLowerCase()} ${modifiedPathsOf(block).join(" ")}`;
      if (result.outcome.isError === false) successes.push({ at: i, key });
      if (result.outcome.isError !== true) continue;
      const text = namedErrorLineOf(textOf(result.message)) ?? textOf(result.message).trim().split("\n")[0]?.trim();
      // A call that never ran, or a hook that stopped it, is no failure of the work.
      if (!text || neverRan(result.message) || /was rejected|interrupted|denied|cancelled|hook/i.test(text)) continue;
      failures.push({
        at: i,
        key,
        text,
        command: block.name,
        result: result.message,
        why: `a ${block.name} call that failed, and was not done again: may still be open, or the agent went another way`,
      });
    }
  });
  const open = failures
    .filter((failure) => !successes.some((success) => success.at > failure.at && success.key === failure.key))
    .filter((failure) => !(graded && failure.result.id === graded.messageId && failure.text === graded.text))
    .sort((a, b) => b.at - a.at);
  const seen = new Set<string>();
  const out: ErrorCandidate[] = [];
  for (const failure of open) {
    if (seen.has(failure.text)) continue;
    seen.add(failure.text);
    out.push({ text: failure.text, command: failure.command, messageId: failure.result.id, source: sourceIn(failure.result, failure.text), why: failure.why });
    if (out.length === ERROR_CANDIDATES_SHOWN) break;
  }
  return out;
}

function commandKey(command: string): string {
  return commandSteps(significantPart(command)).join(" && ");
}

function lookingAround(command: string): boolean {
  const steps = commandSteps(command);
  return steps.length > 0 && steps.every((step) => LOOKING_AROUND.test(step));
}
