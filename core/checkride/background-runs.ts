/**
 * Claude Code's shell commands run in the background (`run_in_background`): the call's own result
 * only says the command started ("Command running in background with ID: b49da09"). How it ended
 * arrives later, in a `TaskOutput` or `BashOutput` result (`<task_id>`, `<status>`, `<exit_code>`,
 * `<output>`/`<stdout>`) or in the `<task-notification>` the harness sends when it finishes
 * ("Background command "Run tests" completed (exit code 0)"). The run is judged by those reports,
 * as a Codex code-mode cell is by the wait that finished it.
 */
import { textOf, type Message } from "../model.ts";

const STARTED = /^Command running in background with ID: ([\w-]+)/;

/** What the session last learned of a background command. */
export interface TaskReport {
  /** The message that said it: the task-notification, or the result of the last look at the task. */
  message: Message;
  /** running, completed, failed, killed… as the harness wrote it. */
  status: string;
  exitCode?: number;
  /** The command's output, from the last report that carried it. */
  output?: string;
}

/** The background task a shell call's result says it started, if it says so. */
export function backgroundTaskOf(resultText: string): string | undefined {
  return STARTED.exec(resultText.trimStart())?.[1];
}

const tag = (text: string, name: string) => new RegExp(`<${name}>\\s*([\\s\\S]*?)\\s*</${name}>`).exec(text)?.[1];

/** The report a message makes on a background task, or undefined when it makes none. */
function reportOf(message: Message): { task: string; status: string; exitCode?: number; output?: string } | undefined {
  const text = textOf(message);
  if (message.role === "toolResult") {
    const task = tag(text, "task_id");
    const status = tag(text, "status");
    if (!task || !status) return undefined;
    const exit = tag(text, "exit_code");
    const output = tag(text, "output") ?? [tag(text, "stdout"), tag(text, "stderr")].filter((part) => part !== undefined).join("\n");
    return { task, status, ...(exit !== undefined && /^-?\d+$/.test(exit) ? { exitCode: Number(exit) } : {}), ...(output ? { output } : {}) };
  }
  if (message.role !== "user" || !text.trimStart().startsWith("<task-notification>")) return undefined;
  const task = tag(text, "task-id");
  const status = tag(text, "status");
  if (!task || !status) return undefined;
  const exit = /exit code (-?\d+)/.exec(tag(text, "summary") ?? "")?.[1];
  return { task, status, ...(exit !== undefined ? { exitCode: Number(exit) } : {}) };
}

/** The last report on each background task of the branch, keyed by the task's id. */
export function backgroundReports(branch: readonly Message[]): Map<string, TaskReport> {
  const reports = new Map<string, TaskReport>();
  for (const message of branch) {
    const report = reportOf(message);
    if (!report) continue;
    const before = reports.get(report.task);
    // A notification carries no output: the last look's output stays the run's.
    reports.set(report.task, { message, status: report.status, exitCode: report.exitCode ?? before?.exitCode, output: report.output ?? before?.output });
  }
  return reports;
}

/** A finished task's outcome as a tool outcome's `isError`: failed or a non-zero exit; undefined while it runs or once killed. */
export function reportIsError(report: TaskReport): boolean | undefined {
  if (report.status === "completed" || report.status === "failed") return report.status === "failed" || (report.exitCode ?? 0) !== 0;
  return undefined;
}
