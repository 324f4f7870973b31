/** A Claude Code shell command run in the background is judged by the later reports on its task, not by the "running" its call returned. */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../../core/checkride/facts.ts";
import { backgroundReports, backgroundTaskOf } from "../../../core/checkride/background-runs.ts";
import type { Message } from "../../../core/model.ts";

const call = (id: string, name: string, args: unknown): Message => ({ id, role: "assistant", meta: {}, blocks: [{ type: "toolCall", id: `t${id}`, name, arguments: args }] });
const result = (id: string, text: string, isError = false): Message => ({
  id: `r${id}`,
  role: "toolResult",
  meta: { toolCallId: `t${id}`, isError },
  blocks: [{ type: "text", text }],
});
const user = (id: string, text: string): Message => ({ id, role: "user", meta: {}, blocks: [{ type: "text", text }] });

const started = (task: string) => `Command running in background with ID: ${task}. Output is being written to: /tmp/${task}.output`;
const look = (task: string, status: string, output: string, exit?: number) =>
  `<retrieval_status>success</retrieval_status>\n\n<task_id>${task}</task_id>\n\n<task_type>local_bash</task_type>\n\n<status>${status}</status>\n\n${exit === undefined ? "" : `<exit_code>${exit}</exit_code>\n\n`}<output>\n${output}\n</output>`;
const notification = (task: string, status: string, summary: string) =>
  `<task-notification>\n<task-id>${task}</task-id>\n<output-file>/tmp/${task}.output</output-file>\n<status>${status}</status>\n<summary>${summary}</summary>\n</task-notification>\nRead the output file to retrieve the result: /tmp/${task}.output`;

describe("a background run", () => {
  it("passed when the notification says it completed with exit code 0; its source is the notification, its output the last look's", () => {
    const branch = [
      call("1", "Bash", { command: "npm run tauri dev 2>&1", run_in_background: true }),
      result("1", started("b49da09")),
      call("2", "TaskOutput", { task_id: "b49da09", block: false }),
      result("2", look("b49da09", "running", "> tauri dev\n     Running BeforeDevCommand (`npm run dev`)")),
      user("n", notification("b49da09", "completed", 'Background command "Run Tauri dev server" completed (exit code 0)')),
    ];
    expect(backgroundTaskOf(started("b49da09"))).toBe("b49da09");
    expect(backgroundReports(branch).get("b49da09")).toMatchObject({ status: "completed", exitCode: 0, output: expect.stringContaining("BeforeDevCommand") });
    const facts = extractFacts(branch, { format: "claude" });
    expect(facts.lastRun).toMatchObject({ command: "npm run tauri dev 2>&1", passed: true, messageId: "n" });
    // The notification is the harness's, never the user's request.
    expect(facts.latestRequest).toBeUndefined();
  });

  it("failed when a look at the task says so, and the error is its output's line", () => {
    const branch = [
      call("1", "Bash", { command: "npm test", run_in_background: true }),
      result("1", started("bx1")),
      call("2", "TaskOutput", { task_id: "bx1" }),
      result("2", look("bx1", "failed", " FAIL  src/a.test.ts\nError: Cannot find module './b'", 1)),
    ];
    const facts = extractFacts(branch, { format: "claude" });
    expect(facts.lastRun).toMatchObject({ passed: false, messageId: "r2" });
    expect(facts.unresolvedError?.text).toBe("Error: Cannot find module './b'");
  });

  it("still running when the session ends: no outcome from the start alone", () => {
    const branch = [
      call("1", "Bash", { command: "npm test", run_in_background: true }),
      result("1", started("bx2")),
      call("2", "TaskOutput", { task_id: "bx2" }),
      result("2", look("bx2", "running", "RUN v3")),
    ];
    expect(extractFacts(branch, { format: "claude" }).lastRun?.passed).toBeUndefined();
  });

  it("a check still running when the file ends (no result, OpenCode's running state, a task never reported) gives way to the last one that finished", () => {
    const running: Message = { id: "rr", role: "toolResult", meta: { toolCallId: "t3", state: { status: "running" } }, blocks: [{ type: "text", text: "Exporting session" }] };
    const earlier = [call("1", "bash", { command: "npm test" }), result("1", "Tests  3 passed (3)")];
    expect(extractFacts([...earlier, call("3", "bash", { command: "npm run build" }), running]).lastRun).toMatchObject({ command: "npm test", passed: true });
    expect(extractFacts([...earlier, call("4", "bash", { command: "npm run build" })]).lastRun).toMatchObject({ command: "npm test" });
    expect(extractFacts([...earlier, call("5", "Bash", { command: "npm run build", run_in_background: true }), result("5", started("bz"))]).lastRun).toMatchObject({
      command: "npm test",
    });
    // With nothing finished, the one still running is the last, its outcome unknown.
    expect(extractFacts([call("4", "bash", { command: "npm run build" })]).lastRun).toMatchObject({ command: "npm run build", passed: undefined });
  });
});
