/**
 * Real sessions found after the shared set (test/fixtures.provenance.json,
 * `optional`): a Cursor agent transcript, two OpenCode stores (one whose
 * compaction is only in its -wal), two condensed Roo Code tasks, a Qwen
 * Code chat and a Gemini CLI chat with a rewind, as their agents wrote them. Each is read with the counts made
 * from the raw file without the readers' code: lines parsed with JSON.parse,
 * a database queried with SQL (or counted beforehand with Python's sqlite3).
 * Skipped, saying so, where the file is not there (`npm run fixtures`).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { SqlJsStatic } from "sql.js";
import { loadSession } from "../../core/session.ts";
import { loadSessionFiles } from "../../core/session-files.ts";
import { loadOpenCodeDatabase } from "../../core/sqlite/opencode-session.ts";
import { queryRows } from "../../core/sqlite/engine.ts";
import { fixturePath, PRESENT_OPTIONAL_FIXTURES } from "../helpers/fixtures.ts";
import { testSqlite } from "../helpers/opencode-db.ts";

type Json = Record<string, any>;
const CURSOR = "cursor/computermode__test-repo__b8b6fbd5f55f.jsonl";
const DATABASE = "opencode/suhd550-dev__stunning-memory__opencode.db";
const present = (file: string) => PRESENT_OPTIONAL_FIXTURES.includes(file);
/** The file's records, parsed apart from the reader under test: the independent count. */
const jsonLines = (bytes: Uint8Array): Json[] =>
  new TextDecoder()
    .decode(bytes)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));

describe.skipIf(!present(CURSOR))(`a real Cursor agent transcript (${CURSOR}; \`npm run fixtures\` fetches it)`, () => {
  it("is read as Cursor, one message per line with its role and its text", () => {
    const bytes = readFileSync(fixturePath(CURSOR));
    const lines = jsonLines(bytes);
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

const WAL_DATABASE = "opencode/hoalaxanh1234__get-spec__e111394f/opencode.db";
/**
 * Counted with Python's own sqlite3 (which applies the -wal beside the file, as SQLite does), not with
 * this project's log reader: `python3 -c "import sqlite3; c = sqlite3.connect('opencode.db'); …"` with
 * the queries of the test above, per session; and again with the -wal moved away.
 */
const WITH_LOG: Record<string, { user: number; assistant: number; tools: number; compactions: number }> = {
  ses_2a3d18192ffeOCweb9zdIH8Zaf: { user: 3, assistant: 6, tools: 3, compactions: 1 },
  ses_2a6af7b63ffeJJxDhas9b6AofN: { user: 2, assistant: 2, tools: 0, compactions: 0 },
  ses_2a6b0e08affeUkXwMsSYPLUKsN: { user: 1, assistant: 1, tools: 0, compactions: 0 },
  ses_2a6bbc099ffeYhB11Z94nOv3j2: { user: 2, assistant: 2, tools: 0, compactions: 0 },
};

describe.skipIf(!present(WAL_DATABASE) || !present(`${WAL_DATABASE}-wal`))(
  `a real OpenCode store whose compaction is only in its -wal (${WAL_DATABASE}; \`npm run fixtures\` fetches it)`,
  () => {
    it("read with its log: every session, message, tool call and the compaction SQLite itself sees", async () => {
      const engine = await testSqlite();
      const bytes = new Uint8Array(readFileSync(fixturePath(WAL_DATABASE)));
      const wal = new Uint8Array(readFileSync(fixturePath(`${WAL_DATABASE}-wal`)));
      for (const [id, want] of Object.entries(WITH_LOG)) {
        const { session } = loadOpenCodeDatabase(engine, bytes, { sessionId: id, wal });
        const branch = session.branch(null);
        expect({
          user: branch.filter((m) => m.role === "user").length,
          assistant: branch.filter((m) => m.role === "assistant" || m.role === "summary").length,
          tools: session.toolCallIds.size,
          compactions: session.recordedCompactions(null).length,
        }).toEqual(want);
      }
      const [compaction] = loadOpenCodeDatabase(engine, bytes, { sessionId: "ses_2a3d18192ffeOCweb9zdIH8Zaf", wal }).session.recordedCompactions(null);
      expect(compaction).toMatchObject({ kind: "opencode-compaction", trigger: "auto" });
      expect(compaction!.after.length).toBeLessThan(compaction!.before.length);
    });

    it("read without its log: the sessions the main file holds, and no compaction (it was never checkpointed)", async () => {
      const engine = await testSqlite();
      const bytes = new Uint8Array(readFileSync(fixturePath(WAL_DATABASE)));
      const db = new engine.Database(bytes);
      const sessions = queryRows(db, "SELECT id FROM session").map((row) => String(row.id));
      db.close();
      expect(sessions.length).toBe(3);
      for (const id of sessions) expect(loadOpenCodeDatabase(engine, bytes, { sessionId: id }).session.recordedCompactions(null)).toEqual([]);
    });
  },
);

const ROO_TASKS = ["roo/jsboige__jsboige-mcp-servers__ac8aa7b4-319c-4925-a139-4f4adca81921", "roo/jsboige__jsboige-mcp-servers__e73ea764-4971-4adb-9197-52c2f8ede8ef"];

describe.each(ROO_TASKS.filter((task) => present(`${task}/api_conversation_history.json`)))("a real Roo Code task condensed by an older Roo (%s)", (task) => {
  it("records the condense with the UI log's own figures, and says the history before it was overwritten", () => {
    const read = (name: string) => ({ name: `${task}/${name}`, bytes: new Uint8Array(readFileSync(fixturePath(`${task}/${name}`))) });
    const session = loadSessionFiles([read("api_conversation_history.json"), read("ui_messages.json")]);
    const history: Json[] = JSON.parse(readFileSync(fixturePath(`${task}/api_conversation_history.json`), "utf8"));
    const ui: Json[] = JSON.parse(readFileSync(fixturePath(`${task}/ui_messages.json`), "utf8"));
    const summaries = history.filter((m) => m.isSummary === true);
    expect(summaries).toHaveLength(1);
    const summaryText = typeof summaries[0]!.content === "string" ? summaries[0]!.content : (summaries[0]!.content as Json[]).map((b) => b.text).join("\n");
    const shown = ui.find((m) => m.say === "condense_context" && m.contextCondense?.summary?.trim() === summaryText.trim())!.contextCondense;
    expect(session.recordedCompactions(null)).toEqual([
      expect.objectContaining({ kind: "roo-condense", line: history.indexOf(summaries[0]!) + 1, tokensBefore: shown.prevContextTokens, tokensAfter: shown.newContextTokens }),
    ]);
    expect(session.warnings.map((w) => w.message)).toEqual([expect.stringContaining("was overwritten (Roo Code before condenseParent)")]);
  });
});

const QWEN = "qwen/Haniaimraxn__TODO-LIST__5c7e5311.jsonl";

describe.skipIf(!present(QWEN))(`a real Qwen Code chat (${QWEN}; \`npm run fixtures\` fetches it)`, () => {
  it("is read as Qwen: its user, assistant and tool-result records, every function call, no compaction made up", () => {
    const bytes = readFileSync(fixturePath(QWEN));
    const records = jsonLines(bytes);
    const count = (type: string) => records.filter((r) => r.type === type).length;
    const calls = records.filter((r) => r.type === "assistant").flatMap((r) => ((r.message?.parts ?? []) as Json[]).filter((part) => part.functionCall)).length;
    const session = loadSession(bytes);
    expect(session.format).toBe("qwen");
    const branch = session.branch(null);
    expect({
      user: branch.filter((m) => m.role === "user").length,
      assistant: branch.filter((m) => m.role === "assistant").length,
      results: branch.filter((m) => m.role === "toolResult").length,
      calls: session.toolCallIds.size,
    }).toEqual({ user: count("user"), assistant: count("assistant"), results: count("tool_result"), calls });
    // Telemetry records are no messages; the file records no compression, and none is made up.
    expect(records.some((r) => r.subtype === "chat_compression")).toBe(false);
    expect(session.recordedCompactions(null)).toEqual([]);
  });
});

const GEMINI_REWIND = "gemini/yoyo30414__-__session-2026-05-17T15-06-1fe9625e.jsonl";

describe.skipIf(!present(GEMINI_REWIND))(`a real Gemini CLI chat with a rewind (${GEMINI_REWIND}; \`npm run fixtures\` fetches it)`, () => {
  it("leaves what it rewound on a branch of its own; the branch read on is what followed the rewind, each message as last written", () => {
    const bytes = readFileSync(fixturePath(GEMINI_REWIND));
    const lines = jsonLines(bytes);
    const rewinds = lines.flatMap((line, index) => (typeof line.$rewindTo === "string" ? [{ index, target: line.$rewindTo as string }] : []));
    expect(rewinds).toHaveLength(1);
    const isMessage = (line: Json) => typeof line.id === "string" && typeof line.type === "string";
    // The messages after the rewind, by id (a message written again on an update is one message).
    const after = [
      ...new Set(
        lines
          .slice(rewinds[0]!.index + 1)
          .filter(isMessage)
          .map((line) => line.id as string),
      ),
    ];
    const before = [
      ...new Set(
        lines
          .slice(0, rewinds[0]!.index)
          .filter(isMessage)
          .map((line) => line.id as string),
      ),
    ];
    expect(before[0]).toBe(rewinds[0]!.target);

    const session = loadSession(bytes);
    expect(session.format).toBe("gemini");
    expect(session.warnings).toEqual([]);
    expect(session.offTreeRecords.$rewindTo).toBe(1);
    const ids = (leaf: string | null) => [...new Set(session.branch(leaf).map((m) => m.id.replace(/#r\d+$/, "")))];
    expect(ids(null)).toEqual(after);
    // The rewound messages are kept, on the other leaf: nothing is lost, and none of them is read on.
    expect(session.leaves).toHaveLength(2);
    const other = session.leaves.find((leaf) => leaf !== session.defaultLeafId)!;
    expect(ids(other)).toEqual(before);
    // A rewind is the user's going back, not a compaction.
    expect(session.recordedCompactions(null)).toEqual([]);
  });
});
