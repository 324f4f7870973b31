/** The library's columns from the session's own records (issue #31): times, model and working directory, never the file's mtime. */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { sessionRecord } from "../../../core/library/session-record.ts";
import { loadSession } from "../../../core/session.ts";
import { describeWithFixtures, fixturePath } from "../../helpers/fixtures.ts";

const load = (relative: string) => loadSession(readFileSync(fixturePath(relative)));

describeWithFixtures("a session's own record", () => {
  it("Claude Code: times from its lines, the model of its replies, the cwd its lines state", () => {
    const record = sessionRecord(load("claude/entireio__cli__d0-161e0df1cb.jsonl"));
    expect(record.cwd).toBe("/Users/alex/workspace/cli/.worktrees/1");
    expect(record.model).toBe("claude-opus-4-6");
    expect(record.first).toMatch(/^202[5-6]-/);
    expect(Date.parse(record.last!)).toBeGreaterThan(Date.parse(record.first!));
  });

  it("Pi: the model of the newest reply and the header's cwd", () => {
    const record = sessionRecord(load("pi/JohnnyLai92__pi-mono__6edf3497.jsonl"));
    expect(record.model).toBe("gemma-4-31b-it");
    expect(record.cwd).not.toBeNull();
    expect(record.first! <= record.last!).toBe(true);
  });

  it("a message array states no time: null, so the library says it used the file's time", () => {
    const record = sessionRecord(load("composed/openai-chat.json"));
    expect(record).toMatchObject({ first: null, last: null });
  });
});
