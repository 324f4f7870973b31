/**
 * From every shell command a session ran, in order, the two facts a reviewer
 * writes down about them (shared/LABELS.md):
 * - the last verification: the last build, test, lint, type-check or run
 *   that checks the work, and its outcome;
 * - the unresolved error, as the answer key grades it: the last
 *   verification's error line, when it failed (nothing after it could have
 *   fixed it), or a program found missing after it. A wider reading, the newest failed check that no later run of
 *   the same check passed, was measured against the blind labels and agreed
 *   less (docs/blind-set.md, round 2), so it is not what is graded.
 */
import type { CommandRun } from "./facts.ts";

export interface ShellRun extends CommandRun {
  /** True when the command builds, tests, lints, type-checks or runs the program (verify.ts). */
  verification: boolean;
  output: string;
  /**
   * Still running when the file ends: no result was recorded, the tool's state says it runs (OpenCode
   * exporting the session from inside one of its own calls), or a background task was never reported done.
   */
  pending?: boolean;
}

/**
 * The last verification that finished; the last one still running only when none did. A check the file
 * shows no end of has no outcome to grade, and the one before it is the last the session saw end.
 */
export function lastVerification(runs: readonly ShellRun[]): CommandRun | undefined {
  const newestFirst = [...runs].reverse();
  const last = newestFirst.find((run) => run.verification && !run.pending) ?? newestFirst.find((run) => run.verification);
  if (!last) return undefined;
  const { verification: _verification, output: _output, pending: _pending, ...run } = last;
  return run;
}

export function unresolvedFailure(runs: readonly ShellRun[]): ShellRun | undefined {
  const newestFirst = [...runs].reverse();
  const last = newestFirst.find((run) => run.verification && !run.pending) ?? newestFirst.find((run) => run.verification);
  if (last?.passed !== false || !last.errorLine) return undefined;
  // The check failed, and then the session found the tool it needed missing (`node -v`: "node: command not
  // found", `nvm use 20`): the newer failure is the one left open, the check's the first sign of it.
  const missingTool = newestFirst.slice(0, newestFirst.indexOf(last)).find((run) => run.passed === false && run.errorLine !== undefined && MISSING_TOOL.test(run.errorLine));
  return missingTool ?? last;
}

/** A shell's word that the program is not there: bash's and zsh's, PowerShell's and cmd's. */
const MISSING_TOOL = /\bcommand not found\b|\bis not recognized as (the name of a cmdlet|an internal or external command)\b/i;
