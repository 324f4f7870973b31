/**
 * Reading a load's bytes: a dropped or chosen file, a fetched demo, or bytes
 * in hand. Each slice goes on to the streaming loader as it arrives, with
 * progress reported and a cancel honoured between slices.
 */
import { SessionError } from "../../core/model.ts";
import type { Session } from "../../core/model.ts";
import { loadSessionFiles, type NamedFile } from "../../core/session-files.ts";
import type { LoadSource } from "./protocol.ts";
import type { TaskContext } from "./task.ts";

const READ_CHUNK_REPORT = 1 << 20;
const PARSE_SLICE = 8 << 20;

/** Called with each slice of the bytes, in order, as they become available. */
export type OnChunk = (chunk: Uint8Array) => void;

export async function readSource(source: LoadSource, task: TaskContext, onChunk: OnChunk): Promise<{ bytes: Uint8Array; name: string }> {
  if (source.kind === "bytes") {
    const bytes = new Uint8Array(source.bytes);
    onChunk(bytes);
    return { bytes, name: source.name };
  }
  if (source.kind === "url") {
    const response = await fetch(source.url);
    if (!response.ok) throw new SessionError(0, `could not fetch ${source.name} (HTTP ${response.status})`);
    const total = Number(response.headers.get("content-length") ?? 0);
    return { bytes: await readStream(response.body, total, task, onChunk), name: source.name };
  }
  if (source.kind === "files") throw new SessionError(0, "a session of several files is read by readSessionFiles");
  return { bytes: await readFile(source.file, task, onChunk), name: source.file.name };
}

/**
 * A database dropped with the `-wal` file beside it (OpenCode's store while it runs): both read whole,
 * so the log's committed writes are read with the database. Null for any other set of files.
 */
export async function readDatabaseWithLog(source: Extract<LoadSource, { kind: "files" }>, task: TaskContext): Promise<{ bytes: Uint8Array; wal: Uint8Array; name: string } | null> {
  if (source.files.length !== 2) return null;
  const [database, log] = source.files as [{ name: string; file: File }, { name: string; file: File }];
  if (log.name !== `${database.name}-wal`) return null;
  const total = database.file.size + log.file.size;
  task.progress({ stage: "reading", loaded: 0, total });
  const bytes = new Uint8Array(await database.file.arrayBuffer());
  task.progress({ stage: "reading", loaded: database.file.size, total });
  const wal = new Uint8Array(await log.file.arrayBuffer());
  task.checkCancelled();
  return { bytes, wal, name: database.file.name };
}

/**
 * A session that is several files (a Cline task folder, a Claude Code session
 * with its subagents): every file is read, then core's loadSessionFiles joins
 * them. The bytes returned are the opening file's (its size and hash name the session).
 */
export async function readSessionFiles(source: Extract<LoadSource, { kind: "files" }>, task: TaskContext): Promise<{ session: Session; bytes: Uint8Array; name: string }> {
  const total = source.files.reduce((sum, entry) => sum + entry.file.size, 0);
  const named: NamedFile[] = [];
  let loaded = 0;
  task.progress({ stage: "reading", loaded, total });
  for (const entry of source.files) {
    named.push({ name: entry.name, bytes: new Uint8Array(await entry.file.arrayBuffer()) });
    loaded += entry.file.size;
    task.progress({ stage: "reading", loaded, total });
    task.checkCancelled();
  }
  const session = loadSessionFiles(named);
  const opening = named.find((file) => /(^|\/)api_conversation_history\.json$/.test(file.name)) ?? named.find((file) => !/(^|\/)agent-[^/]*$/.test(file.name)) ?? named[0]!;
  return { session, bytes: opening.bytes, name: source.name };
}

/**
 * Reads a local file with one arrayBuffer() call (in a worker, reading it in
 * 16 MB slices took twice as long), then hands it on in slices, reporting
 * progress and letting a cancel in between them.
 */
async function readFile(file: File, task: TaskContext, onChunk: OnChunk): Promise<Uint8Array> {
  task.progress({ stage: "reading", loaded: 0, total: file.size });
  const bytes = new Uint8Array(await file.arrayBuffer());
  task.checkCancelled();
  for (let offset = 0; offset < bytes.length; offset += PARSE_SLICE) {
    const end = Math.min(bytes.length, offset + PARSE_SLICE);
    onChunk(bytes.subarray(offset, end));
    task.progress({ stage: "parsing", loaded: end, total: bytes.length });
    // A cancel message can only arrive between tasks.
    await new Promise((resolve) => setTimeout(resolve, 0));
    task.checkCancelled();
  }
  return bytes;
}

async function readStream(stream: ReadableStream<Uint8Array> | null, total: number, task: TaskContext, onChunk: OnChunk): Promise<Uint8Array> {
  if (!stream) return new Uint8Array();
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  let reported = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      task.checkCancelled();
      chunks.push(value);
      onChunk(value);
      loaded += value.length;
      if (loaded - reported >= READ_CHUNK_REPORT) {
        reported = loaded;
        task.progress({ stage: "reading", loaded, total: Math.max(total, loaded) });
      }
    }
  } finally {
    reader.releaseLock();
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
