/** The CLI's input files: the session, read once in pieces, and the others its flags name (Node only). */
import { createHash } from "node:crypto";
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { isFormatName } from "../formats/detect.ts";
import { SessionError, type FormatName, type Session } from "../model.ts";
import { PieceDecoder } from "../decode.ts";
import { StreamingSessionLoader } from "../session-stream.ts";
import { outlineEntry } from "../outline.ts";
import { PeriodicCollector } from "./collect.ts";
import { isDirectory, readSessionFolder } from "./folder.ts";
import { UsageError, stringFlag, type ParsedArgs } from "./flags.ts";
import { FileError } from "./file-error.ts";
import type { SessionFile } from "./session-file.ts";
import { isSqlitePath, readySqlite } from "./sqlite-node.ts";
import { loadOpenCodeDatabase } from "../sqlite/opencode-session.ts";

// Where the commands have always found them.
export { FileError, type SessionFile };

/** Read in pieces of this size into one reused buffer. */
export const READ_PIECE = 8 * 1024 * 1024;

/**
 * The session file named on the command line. It is read once, in pieces,
 * each handed to the streaming loader and the hash as it comes: a 100 MB
 * file is never held whole (reading it whole into new memory took 0.3–0.5 s
 * here, in pieces 0.05 s). The formats and modes that need the whole bytes
 * (one JSON value, --strict) get the loader's copy of the pieces: the file is
 * never read twice, so a pipe, a FIFO or /dev/stdin works like a file.
 */
/** --format NAME, which must name a format the product reads. */
export function formatFlag(args: ParsedArgs): FormatName | undefined {
  const format = stringFlag(args, "format");
  if (format !== undefined && !isFormatName(format)) throw new UsageError(`unknown format "${format}"`);
  return format;
}

export function readSessionFile(args: ParsedArgs, pieceBytes = READ_PIECE, options: { prefixBytes?: number; stringLimit?: number; outline?: boolean } = {}): SessionFile {
  const file = args.positional[0];
  if (!file) throw new UsageError(`${args.command} needs a session file`);
  const format = formatFlag(args);
  if (isDirectory(file)) return readSessionFolder(file, { format, strict: args.flags.has("strict") });
  if (isSqlitePath(file)) return readDatabaseFile(file, args);
  const fd = openInput(file);
  // An outline only of a file that can be read again for its messages (not a pipe, a FIFO or stdin).
  const outline = options.outline === true && fd !== 0 && fstatSync(fd).isFile();
  const loader = new StreamingSessionLoader({ format, strict: args.flags.has("strict") }, new PieceDecoder(), outline ? outlineEntry : undefined);
  if (options.stringLimit !== undefined) loader.wholeLimit = options.stringLimit;
  const hash = createHash("sha256");
  // The hash of the first `prefixBytes` bytes, taken on the same read (did the session grow from an earlier file?).
  const prefixBytes = options.prefixBytes;
  const prefix = prefixBytes !== undefined ? createHash("sha256") : undefined;
  let bytes = 0;
  // An outline's read keeps little: its garbage is collected as it goes (see core/cli/collect.ts).
  const collector = new PeriodicCollector();
  for (const bytesRead of piecesOf(file, fd, pieceBytes)) {
    if (loader.outlining) collector.read(bytesRead.length);
    loader.push(bytesRead);
    hash.update(bytesRead);
    if (prefix && bytes < prefixBytes!) prefix.update(bytesRead.subarray(0, Math.min(bytesRead.length, prefixBytes! - bytes)));
    bytes += bytesRead.length;
  }
  try {
    // One read of the input: a pipe or a FIFO cannot be read twice, so the loader loads from its own copy when it needs the whole bytes.
    const session = loader.finish();
    lastRead = { file, session };
    const prefixSha256 = prefix && bytes >= prefixBytes! ? prefix.digest("hex") : undefined;
    return { file, bytes, sha256: hash.digest("hex"), session, streamed: loader.streamed, outlined: loader.outlined, ...(prefixSha256 ? { prefixSha256 } : {}) };
  } catch (error) {
    if (error instanceof SessionError) throw new FileError(file, error.line, error.reason);
    throw error;
  }
}

/**
 * An OpenCode database: read whole (SQLite needs the whole file), one session of it by --session ID
 * or the latest, with the `-wal` file beside it (OpenCode's newest writes, not yet checkpointed).
 */
function readDatabaseFile(file: string, args: ParsedArgs): SessionFile {
  const bytes = readFileSync(file);
  const walFile = `${file}-wal`;
  const wal = existsSync(walFile) ? readFileSync(walFile) : null;
  try {
    const { session } = loadOpenCodeDatabase(readySqlite(), bytes, { sessionId: stringFlag(args, "session"), strict: args.flags.has("strict"), wal });
    lastRead = { file, session };
    return { file, bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), session, streamed: false, outlined: false };
  } catch (error) {
    if (error instanceof SessionError) throw new FileError(file, error.line, error.reason);
    throw error;
  }
}

/**
 * The bytes of `fd` (opened by openInput) in pieces of one reused buffer: each
 * is valid until the next is asked for. Closes `fd` at the end (not stdin).
 */
export function* piecesOf(file: string, fd: number, pieceBytes = READ_PIECE): Generator<Uint8Array> {
  try {
    const piece = Buffer.allocUnsafe(pieceBytes);
    for (let read = readPiece(file, fd, piece); read > 0; read = readPiece(file, fd, piece)) yield piece.subarray(0, read);
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

/** Names of the standard input: read from descriptor 0 itself (opening /dev/stdin fails on a socket, ENXIO). */
const STDIN_NAMES = new Set(["-", "/dev/stdin"]);

export function openInput(file: string): number {
  if (STDIN_NAMES.has(file)) return 0;
  try {
    const fd = openSync(file, "r");
    if (fstatSync(fd).isDirectory()) {
      closeSync(fd);
      throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    }
    return fd;
  } catch (error) {
    throw readError(file, error);
  }
}

/** Reads the next bytes of `fd` into `into` (from `offset`, at most `length`); 0 at its end. */
export function readPiece(file: string, fd: number, into: Uint8Array, offset = 0, length = into.length - offset): number {
  for (;;) {
    try {
      return readSync(fd, into, offset, length, null);
    } catch (error) {
      // A non-blocking stdin with nothing yet: wait for the writer (a short sleep, not a spin).
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      if ((error as NodeJS.ErrnoException).code === "EOF") return 0;
      throw readError(file, error);
    }
  }
}

/** The session file read last, for naming the message behind an error that has no file of its own (a stack overflow). */
export let lastRead: { file: string; session: Session } | undefined;

export function readInput(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (error) {
    throw readError(file, error);
  }
}

/** --memory FILE: the text of the agent's memory file, which the checkride counts as known. */
export function memoryFlag(args: ParsedArgs): string | undefined {
  const file = stringFlag(args, "memory");
  return file ? new TextDecoder().decode(readInput(file)) : undefined;
}

function readError(file: string, error: unknown): FileError {
  const code = (error as NodeJS.ErrnoException).code;
  return new FileError(file, 0, code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : `cannot read (${code ?? error})`);
}
