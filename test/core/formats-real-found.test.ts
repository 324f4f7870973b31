/**
 * Real sessions found after the shared set (test/fixtures.provenance.json,
 * `optional`): a Cursor agent transcript and an OpenCode store as their
 * agents wrote them. Each is read with the counts made here from the raw
 * file, without the readers' code: the transcript's lines parsed with
 * JSON.parse, the database queried with SQL. Skipped, saying so, where the
 * file is not there (`npm run fixtures` fetches it).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { SqlJsStatic } from "sql.js";
import { loadSession } from "../../core/session.ts";
import { loadOpenCodeDatabase } from "../../core/sqlite/opencode-session.ts";
import { queryRows } from "../../core/sqlite/engine.ts";
import { fixturePath, PRESENT_OPTIONAL_FIXTURES } from "../helpers/fixtures.ts";
import { testSqlite } from "../helpers/opencode-db.ts";

type Json = Record<string, any>;
const CURSOR = "cursor/computermode__test-repo__b8b6fbd5f55f.jsonl";
const DATABASE = "opencode/suhd550-dev__stunning-memory__opencode.db";
const present = (file: string) => PRESENT_OPTIONAL_FIXTURES.includes(file);

describe.skipIf(!present(CURSOR))(`a real Cursor agent transcript (${CURSOR}; \`npm run fixtures\` fetches it)`, () => {
  it("is read as Cursor, one message per line with its role and its text", () => {
    const bytes = readFileSync(fixturePath(CURSOR));
    const lines: Json[] = new TextDecoder()
      .decode(bytes)
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line));
    const session = loadSession(bytes);
    expect(session.format).toBe("cursor");
    expect(session.warnings).toEqual([]);
    const branch = session.branch(null);
    expect(branch.map((m) => m.role)).toEqual(lines.map((line) => line.role));
    const texts = (line: Json) => (line.message.content as Json[]).filter((block) => block.type === "text").map((block) => block.text as string);
    branch.forEach((message, i) => {
      for (const text of texts(lines[i]!)) expect(message.blocks.some((block) => block.type === "text" && block.text === text)).toBe(true);
    });
    // Cursor's transcripts record no tool calls and no compactions: none are made up.
    expect(session.toolCallIds.size).toBe(lines.flatMap((line) => (line.message.content as Json[]).filter((block) => block.type === "tool_use")).length);
    expect(session.recordedCompactions(null)).toEqual([]);
  });
});

describe.skipIf(!present(DATABASE))(`a real OpenCode store (${DATABASE}; \`npm run fixtures\` fetches it)`, () => {
  let engine: SqlJsStatic;
  it("holds the sessions, messages, tool calls and compactions its tables do", async () => {
    engine = await testSqlite();
    const bytes = new Uint8Array(readFileSync(fixturePath(DATABASE)));
    const db = new engine.Database(bytes);
    const sessions = queryRows(db, "SELECT id FROM session").map((row) => String(row.id));
    const count = (sql: string, id: string) => Number(Object.values(queryRows(db, sql, [id])[0]!)[0]);
    const expected = sessions.map((id) => ({
      id,
      user: count("SELECT count(*) FROM message WHERE session_id = ? AND json_extract(data, '$.role') = 'user'", id),
      assistant: count("SELECT count(*) FROM message WHERE session_id = ? AND json_extract(data, '$.role') = 'assistant'", id),
      tools: count("SELECT count(*) FROM part WHERE session_id = ? AND json_extract(data, '$.type') = 'tool'", id),
      compactions: count("SELECT count(*) FROM part WHERE session_id = ? AND json_extract(data, '$.type') = 'compaction'", id),
    }));
    db.close();
    expect(expected.length).toBeGreaterThan(0);
    for (const want of expected) {
      const { session } = loadOpenCodeDatabase(engine, bytes, { sessionId: want.id });
      expect(session.format).toBe("opencode");
      const branch = session.branch(null);
      // Each tool part is the assistant's call and, once it ran, its result: one toolResult message per tool part.
      expect({
        user: branch.filter((m) => m.role === "user").length,
        assistant: branch.filter((m) => m.role === "assistant").length,
        tools: session.toolCallIds.size,
        results: branch.filter((m) => m.role === "toolResult").length,
        compactions: session.recordedCompactions(null).length,
      }).toEqual({ user: want.user, assistant: want.assistant, tools: want.tools, results: want.tools, compactions: want.compactions });
    }
  });
});
