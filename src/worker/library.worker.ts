/// <reference lib="webworker" />
/**
 * One worker of the library's pool: runs the one per-session audit pass
 * (core/library/index-session.ts, the CLI's code path too) on one session at a
 * time, reading its files from the File objects the page handed over, and
 * posts back the derived rows only. The session is let go after each unit.
 */
import { rowsTaken } from "../../core/library/cache.ts";
import { indexSession, reusableAudits } from "../../core/library/index-session.ts";
import type { LibraryWorkerRequest, LibraryWorkerReply } from "./library-client.ts";
import { appSqlite } from "./services/database.ts";

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = async (event: MessageEvent<LibraryWorkerRequest>) => {
  const { id, unit, files, previous } = event.data;
  const byPath = new Map(files.map((file) => [file.path, file.file]));
  const read = async (path: string): Promise<Uint8Array> => {
    const file = byPath.get(path);
    if (!file) throw new Error(`${path} was not handed to the worker`);
    return new Uint8Array(await file.arrayBuffer());
  };
  // A grown session's tail and the few bytes that tell it was only appended to (core/library/resume.ts).
  const readRange = async (path: string, start: number, end: number): Promise<Uint8Array> => {
    const file = byPath.get(path);
    if (!file) throw new Error(`${path} was not handed to the worker`);
    return new Uint8Array(await file.slice(start, end).arrayBuffer());
  };
  let reply: LibraryWorkerReply;
  try {
    const reuse = previous && reusableAudits(previous);
    const rows = await indexSession(unit, read, { sqlite: appSqlite, reuse, previous: previous && "session" in previous ? previous : undefined, readRange });
    reply = { id, rows, reused: rowsTaken(rows, reuse) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    reply = { id, rows: { skipped: { kind: "skipped", path: unit.path, reason: `the audit failed: ${reason.slice(0, 300)}` } }, reused: 0 };
  }
  self.postMessage(reply);
};
