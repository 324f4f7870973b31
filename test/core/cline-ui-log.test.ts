/**
 * A Cline task's UI log read alone (core/formats/cline-ui.ts): a repository
 * may commit ui_messages.json without its api_conversation_history.json.
 * The session is the conversation as shown, says so, links each command to
 * its output, keeps usage and the working directory, counts what it cannot
 * audit, and its facts read the UI's tool names. The log is composed
 * (test/helpers/composed-sessions.ts), shaped as Cline's ClineMessage records.
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../core/checkride/facts.ts";
import { acceptingJsonValue } from "../../core/formats/recognise.ts";
import { textOf } from "../../core/model.ts";
import { loadSession } from "../../core/session.ts";
import { loadSessionFiles } from "../../core/session-files.ts";
import { sessionCwd } from "../../core/session-info.ts";
import { compactionsUnrecorded } from "../../core/compactions/unrecorded.ts";
import { clineUiLog } from "../helpers/composed-sessions.ts";
import { usageAgainstView } from "../../core/usage/summary.ts";
import { CHARS_QUARTER } from "../../core/tokens.ts";

const uiLog = clineUiLog();
const bytes = new TextEncoder().encode(JSON.stringify(uiLog));

describe("a Cline UI log read alone", () => {
  it("is recognised as Cline by one recogniser only", () => {
    expect(acceptingJsonValue(uiLog)).toEqual(["cline"]);
    // A history (Anthropic turns) is not a UI log, and the other way round.
    expect(acceptingJsonValue([{ role: "user", content: "<task>x</task>" }])).toEqual(["cline"]);
    expect(acceptingJsonValue([{ ts: 1, type: "say", say: "task", text: "x" }, { ts: 2 }])).toEqual([]);
  });

  it("holds the conversation as shown, with ids from ts and a command's output as its result", () => {
    const session = loadSession(bytes);
    expect(session.format).toBe("cline");
    const branch = session.branch(null);
    expect(branch.map((m) => [m.id, m.role])).toEqual([
      ["100", "user"],
      ["102", "assistant"],
      ["103", "assistant"],
      ["104", "assistant"],
      ["105", "assistant"],
      ["107", "assistant"],
      ["108", "toolResult"],
      ["109", "assistant"],
      ["110", "user"],
      ["112", "assistant"],
      ["112#1", "custom"],
      ["115", "assistant"],
    ]);
    expect(branch[1]!.blocks[0]).toEqual({ type: "thinking", text: "The parser must accept ISO weeks." });
    expect(branch[5]!.blocks[0]).toMatchObject({ type: "toolCall", id: "107", name: "execute_command", arguments: { command: "npm test" } });
    expect(branch[6]!.meta.toolCallId).toBe("107");
    expect(textOf(branch[7]!)).toBe("Also cover leap years?\n- yes\n- no");
    expect(branch.map((m) => m.line)).toEqual([1, 3, 4, 5, 6, 8, 9, 10, 11, 14, 15, 17]);
  });

  it("says what it is not, counts what it cannot audit, keeps usage and the working directory", () => {
    const session = loadSession(bytes);
    expect(session.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(
        /^ui_messages\.json alone: the conversation as the Cline UI showed it, not what the model was sent .*the 1 truncation\(s\) it records index that history, so they are counted, not audited$/,
      ),
    ]);
    expect(session.recordedCompactions(null)).toEqual([]);
    expect(compactionsUnrecorded(session)).toMatch(/^This is a Cline UI log read without its api_conversation_history\.json/);
    expect(session.usage(null).turns.map((t) => [t.line, t.contextTokens, t.messageId])).toEqual([
      [2, 1210, "102"],
      [12, 1610, "112"],
    ]);
    // Each request belongs to the reply after it: the model's view of that turn is what came before.
    expect(usageAgainstView(session, null, CHARS_QUARTER).lastTurnViewTokens).toBeGreaterThan(0);
    expect(sessionCwd(session)).toBe("/home/dev/dates");
    expect(session.offTreeRecords).toEqual({ api_req_started: 2, checkpoint_created: 1, task_progress: 1, some_future_kind: 1 });
    const unknownStrict = new TextEncoder().encode(JSON.stringify([...uiLog.slice(0, 1), { ts: 200, type: "say", say: "unheard_of" }]));
    expect(() => loadSession(unknownStrict, { strict: true })).toThrow(/unknown Cline UI record "unheard_of"/);
  });

  it("gives the facts the UI's tool names mean: files written, the last verification", () => {
    const session = loadSession(bytes);
    const facts = extractFacts(session.branch(null), { cwd: sessionCwd(session), format: session.format });
    expect([...facts.modifiedFiles].sort()).toEqual(["src/date.ts", "test/leap.test.ts"]);
    expect(facts.readFiles).toEqual(["src/format.ts"]);
    expect(facts.lastRun).toMatchObject({ command: "npm test", passed: true, messageId: "108" });
  });

  it("opens from a task folder that kept only its UI log and metadata", () => {
    const session = loadSessionFiles([
      { name: "tasks/1/ui_messages.json", bytes },
      { name: "tasks/1/task_metadata.json", bytes: new TextEncoder().encode("{}") },
    ]);
    expect(session.branch(null)).toHaveLength(12);
  });
});
