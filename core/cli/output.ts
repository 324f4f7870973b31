/**
 * The CLI's output: text pieces encoded into one reused buffer and written
 * synchronously. A checkpoint arrives as many pieces (core/checkpoint-json.ts);
 * each is encoded and dropped as soon as it is written, so writing a 100 MB
 * checkpoint needs 4 MB of buffer, not a second copy of the checkpoint.
 */
import { closeSync, fchmodSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { FileError } from "./input.ts";

const BUFFER_BYTES = 4 * 1024 * 1024;

/**
 * Refuses an output that is one of the inputs (the same file by device and
 * inode: the same path, a symbolic or hard link to it). Writing it would
 * replace the session file itself with its checkpoint or report, losing the
 * other branches and every non-message entry. Called before any work.
 */
export function refuseInputAsOutput(output: string | undefined, inputs: readonly (string | undefined)[]): void {
  if (output === undefined) return;
  let target;
  try {
    target = statSync(output);
  } catch {
    return; // Not there yet: it cannot be an input.
  }
  if (!target.isFile()) return; // A device or a pipe is written to, never replaced.
  for (const input of inputs) {
    if (input === undefined) continue;
    let source;
    try {
      source = statSync(input);
    } catch {
      continue; // Reading it will say why.
    }
    if (source.dev === target.dev && source.ino === target.ino) {
      throw new FileError(output, 0, `is the input ${input}: refusing to overwrite it (choose another --output)`);
    }
  }
}

/**
 * `text` to a file, or to stdout without one, with a final newline. A file
 * appears whole or not at all: it is written beside its name and renamed into
 * place at the end, so a full disk or an error halfway leaves no truncated
 * checkpoint behind, and an existing file stays as it was (a replaced file
 * keeps its permissions; a symbolic link keeps pointing where it did, at the
 * new content). Devices and pipes (/dev/null, a FIFO) are written directly.
 */
export function writeOutput(text: string | Iterable<string>, output: string | undefined): void {
  if (output === undefined) return writePieces(1, text);
  const file = openOutput(output);
  try {
    writePieces(file.fd, text);
    file.finish();
  } catch (error) {
    throw writeError(output, error);
  } finally {
    file.close();
  }
}

/** writeOutput for content made as it is written (the streamed compaction): `produce` writes through the writer it is given. */
export async function writeOutputWith(output: string | undefined, produce: (writer: BufferedWriter) => Promise<void>): Promise<void> {
  if (output === undefined) return writeAndEnd(1, produce);
  const file = openOutput(output);
  try {
    await writeAndEnd(file.fd, produce);
    file.finish();
  } catch (error) {
    throw writeError(output, error);
  } finally {
    file.close();
  }
}

async function writeAndEnd(fd: number, produce: (writer: BufferedWriter) => Promise<void>): Promise<void> {
  const writer = new BufferedWriter(fd);
  await produce(writer);
  writer.write("\n");
  writer.flush();
}

interface OutputFile {
  fd: number;
  /** Marks the content complete: close then puts it in place. */
  finish(): void;
  /** Closes it; an unfinished file beside its name is removed. */
  close(): void;
}

function openOutput(output: string): OutputFile {
  const target = outputTarget(output);
  const path = target.direct ? target.path : `${target.path}.${process.pid}.partial`;
  let fd: number;
  try {
    fd = openSync(path, "w", target.mode);
  } catch (error) {
    throw writeError(output, error);
  }
  let finished = false;
  try {
    if (target.mode !== undefined) fchmodSync(fd, target.mode);
  } catch (error) {
    closeSync(fd);
    if (!target.direct) rmSync(path, { force: true });
    throw writeError(output, error);
  }
  return {
    fd,
    finish: () => void (finished = true),
    close: () => {
      closeSync(fd);
      if (target.direct) return;
      if (finished) renameSync(path, target.path);
      else rmSync(path, { force: true });
    },
  };
}

/** The directory a file written to `output` is made in (its .partial sits there): scratch files of the same write go beside it. */
export function outputDirectory(output: string | undefined): string | undefined {
  if (output === undefined) return undefined;
  const target = outputTarget(output);
  return target.direct ? undefined : dirname(target.path);
}

function writePieces(fd: number, text: string | Iterable<string>): void {
  const writer = new BufferedWriter(fd);
  for (const piece of typeof text === "string" ? [text] : text) writer.write(piece);
  writer.write("\n");
  writer.flush();
}

interface OutputTarget {
  /** The file that gets the content: the output itself, or what its link points to. */
  path: string;
  /** Written in place: a device or a pipe, which cannot be replaced by a rename. */
  direct: boolean;
  /** The permissions of the file being replaced. */
  mode?: number;
}

function outputTarget(output: string): OutputTarget {
  let stat;
  try {
    stat = statSync(output);
  } catch {
    return { path: output, direct: false }; // Missing (or unreadable: opening it will say why).
  }
  if (stat.isDirectory()) throw new FileError(output, 0, "is a directory");
  if (!stat.isFile()) return { path: output, direct: true };
  return { path: realpathSync(output), direct: false, mode: stat.mode & 0o7777 };
}

/** An I/O error as a one-line FileError naming the output; anything else (a bug) as it is. */
function writeError(file: string, error: unknown): unknown {
  if (error instanceof FileError) return error;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== "string") return error;
  const reason = REASONS[code] ?? `cannot write (${code})`;
  return new FileError(file, 0, reason);
}

const REASONS: Record<string, string> = {
  ENOENT: "no such directory",
  ENOTDIR: "no such directory",
  EISDIR: "is a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
};

export class BufferedWriter {
  private readonly buffer: Buffer;
  private used = 0;
  /** Bytes handed to the file so far. */
  written = 0;

  /** `bufferBytes` is at least 8 (two UTF-16 units of slice after dividing by 3); small sizes are for tests. */
  constructor(
    private readonly fd: number,
    bufferBytes = BUFFER_BYTES,
  ) {
    this.buffer = Buffer.allocUnsafe(Math.max(8, bufferBytes));
  }

  write(text: string): void {
    // UTF-8 needs at most 3 bytes per UTF-16 code unit.
    if (text.length * 3 > this.buffer.length - this.used) {
      this.flush();
      // A piece bigger than the buffer (the active view) goes through it in slices, never as one big copy.
      const slice = Math.floor(this.buffer.length / 3);
      let from = 0;
      while (text.length - from > slice) {
        let to = from + slice;
        // Never cut between the two halves of a surrogate pair.
        const last = text.charCodeAt(to - 1);
        if (last >= 0xd800 && last <= 0xdbff) to--;
        this.used = this.buffer.write(text.slice(from, to), 0, "utf8");
        this.flush();
        from = to;
      }
      if (from > 0) text = text.slice(from);
    }
    this.used += this.buffer.write(text, this.used, "utf8");
  }

  /** Bytes as they are (already UTF-8). */
  writeBytes(bytes: Uint8Array): void {
    this.flush();
    this.writeAll(bytes);
  }

  flush(): void {
    this.writeAll(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private writeAll(bytes: Uint8Array): void {
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += writeSync(this.fd, bytes, offset);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // The reader went away (`| head`): nothing more to write, and no error to report.
        if (code === "EPIPE") return;
        // A non-blocking stdout pipe that is full: try again until the reader drains it.
        if (code !== "EAGAIN") throw error;
      }
    }
    this.written += bytes.length;
  }
}
