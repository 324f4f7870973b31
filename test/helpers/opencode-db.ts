/**
 * OpenCode databases composed for tests: exports (`{info, messages:[{info,
 * parts}]}`) written into OpenCode's tables as OpenCode writes them (ids and
 * owners in columns, the rest of each message and part as JSON in `data`).
 */
import type { SqlJsStatic } from "sql.js";
import { sqliteEngine } from "../../core/sqlite/engine.ts";

/** The engine as the CLI makes it (sql.js finds its WASM beside its own script). */
export function testSqlite(): Promise<SqlJsStatic> {
  return sqliteEngine();
}

type Json = Record<string, unknown>;
export interface ExportShape {
  info: Json;
  messages: { info: Json; parts: Json[] }[];
}

const SCHEMA = `
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
`;

function without(value: Json, ...keys: string[]): Json {
  const out = { ...value };
  for (const key of keys) delete out[key];
  return out;
}

/** The database bytes holding each export as one session; `updated` orders them (the last is the newest). */
export function opencodeDatabase(engine: SqlJsStatic, exports: readonly ExportShape[]): Uint8Array {
  const db = new engine.Database();
  db.run(SCHEMA);
  exports.forEach((exported, index) => {
    const info = exported.info;
    const time = (info.time ?? {}) as Json;
    const created = typeof time.created === "number" ? time.created : 1_700_000_000_000 + index;
    db.run("INSERT INTO session VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [
      String(info.id),
      "project",
      typeof info.parentID === "string" ? info.parentID : null,
      `slug-${index}`,
      typeof info.directory === "string" ? info.directory : "/work",
      typeof info.title === "string" ? info.title : `session ${index}`,
      typeof info.version === "string" ? info.version : "1.2.0",
      created,
      1_800_000_000_000 + index,
    ]);
    exported.messages.forEach((message, m) => {
      const id = String(message.info.id);
      const at = created + m;
      db.run("INSERT INTO message VALUES (?, ?, ?, ?, ?)", [id, String(info.id), at, at, JSON.stringify(without(message.info, "id", "sessionID"))]);
      for (const part of message.parts) {
        db.run("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)", [String(part.id), id, String(info.id), at, at, JSON.stringify(without(part, "id", "messageID", "sessionID"))]);
      }
    });
  });
  const bytes = db.export();
  db.close();
  return bytes;
}

/** A small export of OpenCode's shape: a question, a step with a tool call and its result, an answer. */
export function composedExport(id: string, title: string, parentID?: string): ExportShape {
  const user = `msg_${id}_1`;
  const assistant = `msg_${id}_2`;
  return {
    info: { id, title, directory: "/work/app", ...(parentID ? { parentID } : {}), time: { created: 1_760_000_000_000, updated: 1_760_000_100_000 } },
    messages: [
      {
        info: { id: user, sessionID: id, role: "user", time: { created: 1 } },
        parts: [{ id: `prt_${id}_1`, sessionID: id, messageID: user, type: "text", text: `Rename the ${title} helper` }],
      },
      {
        info: { id: assistant, sessionID: id, role: "assistant", time: { created: 2 }, tokens: { input: 120, output: 30, reasoning: 0, cache: { read: 0, write: 0 } } },
        parts: [
          { id: `prt_${id}_2`, sessionID: id, messageID: assistant, type: "step-start" },
          {
            id: `prt_${id}_3`,
            sessionID: id,
            messageID: assistant,
            type: "tool",
            tool: "read",
            callID: `call_${id}`,
            state: { status: "completed", input: { filePath: "/work/app/a.ts" }, output: "export const a = 1;", title: "a.ts", metadata: {}, time: { start: 3, end: 4 } },
          },
          { id: `prt_${id}_4`, sessionID: id, messageID: assistant, type: "text", text: "Renamed it." },
          { id: `prt_${id}_5`, sessionID: id, messageID: assistant, type: "step-finish", tokens: { input: 120, output: 30, reasoning: 0, cache: { read: 0, write: 0 } } },
        ],
      },
    ],
  };
}
