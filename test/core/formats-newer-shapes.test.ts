/**
 * Newer shapes of the formats read before: Codex opaque compaction items and
 * thread_rolled_back (composed: no licensed file has a rollback), Claude Code
 * <persisted-output> previews and isMeta lines (real file), Pi's developer role.
 */
import { describe, expect, it } from "vitest";
import { loadSession } from "../../core/session.ts";
import { loadSessionFiles } from "../../core/session-files.ts";
import { readFixture, describeWithFixtures, fixturesPresent } from "../helpers/fixtures.ts";

const lines = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";
const item = (payload: Record<string, unknown>) => ({ timestamp: "2026-02-01T00:00:00Z", type: "response_item", payload });
const user = (text: string) => item({ type: "message", role: "user", content: [{ type: "input_text", text }] });
const assistant = (text: string) => item({ type: "message", role: "assistant", content: [{ type: "output_text", text }] });

describe("Codex", () => {
  it.skipIf(!fixturesPresent)("a real rollout's compacted records keep window_number and their opaque compaction item, shown by size", () => {
    const session = loadSession(readFixture("codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl"));
    const compacted = session.branch(null).filter((m) => m.role === "summary" && m.meta.replacement_history);
    expect(compacted.map((m) => m.meta.window_number)).toEqual([1, 2]);
    const opaque = session.recordedContext(null).messages.filter((m) => m.meta.type === "compaction");
    expect(opaque).toHaveLength(1);
    const raw = opaque[0]!.blocks[0]!;
    const encrypted = raw.type === "raw" ? (raw.value as { encrypted_content: string }).encrypted_content : "";
    expect(opaque[0]).toMatchObject({ role: "summary", meta: { opaqueBytes: new TextEncoder().encode(encrypted).length } });
  });

  it("thread_rolled_back {num_turns} drops the last user turns and what followed them (composed rollout)", () => {
    const text = lines([
      { timestamp: "2026-02-01T00:00:00Z", type: "session_meta", payload: { id: "r1", cwd: "/w", cli_version: "0.150.0" } },
      user("<environment_context>cwd /w</environment_context>"),
      user("First: list the files."),
      assistant("a.txt"),
      user("Second: delete a.txt."),
      assistant("Deleted."),
      user("Third: never mind."),
      { timestamp: "2026-02-01T00:00:01Z", type: "event_msg", payload: { type: "thread_rolled_back", num_turns: 2 } },
      user("Second, again: rename a.txt to b.txt."),
    ]);
    const session = loadSession(text, { strict: true });
    const recorded = session.recordedContext(null);
    expect(recorded.messages.map((m) => m.id)).toEqual(["L2", "L3", "L4", "L9"]);
    expect(recorded.droppedMessageIds).toEqual(["L5", "L6", "L7"]);
    expect(session.branch(null)).toHaveLength(7); // the rolled-back turns stay in the file's history
  });
});

describeWithFixtures("Claude Code 2.1.x", () => {
  const session = loadSession(readFixture("claude/entireio__cli__f9-f6f611b469.jsonl"));
  const raw = new TextDecoder().decode(readFixture("claude/entireio__cli__f9-f6f611b469.jsonl"));

  it("a <persisted-output> preview stays verbatim and is marked as the agent's own omission", () => {
    const marked = session.branch(null).filter((m) => m.meta.agentOmission);
    expect(marked).toHaveLength(raw.split("\n").filter((l) => l.includes("<persisted-output>")).length);
    const block = marked[0]!.blocks[0]!;
    expect(block.type === "text" && block.text.startsWith("<persisted-output>")).toBe(true);
    expect(marked[0]!.meta.agentOmission).toMatchObject({ marker: "persisted-output", size: expect.stringMatching(/KB$/), savedTo: expect.stringMatching(/\.txt$/) });
  });

  it("handed over with a saved tool output beside it, the session is read and the sidecar left out", () => {
    const files = [
      { name: "f9-f6f611b469.jsonl", bytes: readFixture("claude/entireio__cli__f9-f6f611b469.jsonl") },
      { name: "f9-f6f611b469/tool-results/toolu_01.txt", bytes: new TextEncoder().encode("the full output") },
    ];
    expect(
      loadSessionFiles(files)
        .branch(null)
        .map((m) => m.id),
    ).toEqual(session.branch(null).map((m) => m.id));
  });

  it("isMeta user lines say so at the top of meta", () => {
    const expected = raw
      .split("\n")
      .filter((l) => l.trim() && JSON.parse(l).isMeta === true && JSON.parse(l).type === "user")
      .map((l) => JSON.parse(l).uuid);
    expect(
      session.entries
        .flatMap((e) => e.messages)
        .filter((m) => m.meta.isMeta === true)
        .map((m) => m.id),
    ).toEqual(expected);
  });
});

describe("Pi", () => {
  it("a developer message is a system turn, its source role kept", () => {
    const text = lines([
      { type: "session", version: 3, id: "s1", timestamp: "2026-02-01T00:00:00Z", cwd: "/w" },
      { type: "message", id: "a1", parentId: null, timestamp: "2026-02-01T00:00:01Z", message: { role: "developer", content: [{ type: "text", text: "Prefer small commits." }] } },
      { type: "message", id: "a2", parentId: "a1", timestamp: "2026-02-01T00:00:02Z", message: { role: "user", content: "Go." } },
    ]);
    const branch = loadSession(text, { strict: true }).branch(null);
    expect(branch.map((m) => [m.role, m.meta.role])).toEqual([
      ["system", "developer"],
      ["user", "user"],
    ]);
  });
});

describe("OpenCode", () => {
  it("an export whose ids were redacted (the same id on several messages and parts) keeps every message, in order, each named by its position", () => {
    const message = (role: string, text: string, partId = "REDACTED") => ({
      info: { id: "REDACTED", role, sessionID: "ses_1", time: { created: 1 } },
      parts: [{ id: partId, type: "text", text }],
    });
    const exported = {
      info: { id: "ses_1", version: "1.2.0", title: "t" },
      messages: [message("user", "first question"), message("assistant", "first answer"), message("user", "second question"), message("assistant", "second answer")],
    };
    const session = loadSession(new TextEncoder().encode(JSON.stringify(exported)));
    const branch = session.branch(session.defaultLeafId);
    expect(branch.map((m) => [m.role, m.blocks.map((b) => (b.type === "text" ? b.text : "")).join("")])).toEqual([
      ["user", "first question"],
      ["assistant", "first answer"],
      ["user", "second question"],
      ["assistant", "second answer"],
    ]);
    expect(new Set(branch.map((m) => m.id)).size).toBe(4);
    expect(session.leaves).toHaveLength(1);
    expect(session.warnings.map((w) => w.message)).toEqual([expect.stringContaining("3 message or part ids repeat an earlier one")]);
  });
});
