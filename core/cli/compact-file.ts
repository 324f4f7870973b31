/**
 * The CLI's streamed `compact` of a file (core/compact-stream.ts): the file
 * read a second time for its messages, checked to be the bytes the first
 * read hashed, and the archive spooled to a scratch file beside the output
 * (or in the system's temporary folder for stdout) until the active view is
 * written. Node only.
 */
import { createHash } from "node:crypto";
import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compactStreamed, type StreamedCompaction } from "../compact-stream.ts";
import { PieceDecoder } from "../decode.ts";
import { SessionError } from "../model.ts";
import { PeriodicCollector } from "./collect.ts";
import { FileError, openInput, piecesOf } from "./input.ts";
import { BufferedWriter, outputDirectory, writeOutputWith } from "./output.ts";

export async function compactFileStreamed(file: string, job: StreamedCompaction, output: string | undefined): Promise<void> {
  // The output is opened first: a missing or unwritable folder is named as the output's.
  await writeOutputWith(output, async (writer) => {
    const scratch = makeScratchFolder(outputDirectory(output) ?? tmpdir());
    const spool = new Spool(join(scratch, "archive.json"));
    try {
      await compactStreamed(job, readAgain(file, job.source), new PieceDecoder(), {
        write: (piece) => writer.write(piece),
        spool: (piece) => spool.write(piece),
        writeSpooled: () => spool.copyInto(writer),
      });
    } catch (error) {
      if (error instanceof SessionError) throw new FileError(file, error.line, error.reason);
      throw error;
    } finally {
      spool.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
}

function makeScratchFolder(parent: string): string {
  try {
    return mkdtempSync(join(parent, ".session-inspector-archive-"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new FileError(parent, 0, `cannot make a scratch folder for the archive here (${code}); the archive is kept there until the active view is written`);
  }
}

/** The file's bytes again, in pieces of one reused buffer; at the end, an error if they are not the bytes first read. */
function* readAgain(file: string, first: { bytes: number; sha256: string }): Generator<Uint8Array> {
  const hash = createHash("sha256");
  const collector = new PeriodicCollector();
  let bytes = 0;
  for (const bytesRead of piecesOf(file, openInput(file))) {
    hash.update(bytesRead);
    bytes += bytesRead.length;
    collector.read(bytesRead.length);
    yield bytesRead;
  }
  if (bytes !== first.bytes || hash.digest("hex") !== first.sha256) {
    throw new FileError(
      file,
      0,
      "changed while it was being compacted (it is read twice, and the second read differs from the first): try again once the agent has stopped writing it",
    );
  }
}

/** The archive's pieces, kept in a scratch file until they are copied into the output. */
class Spool {
  private fd: number | null;
  private readonly writer: BufferedWriter;

  constructor(private readonly path: string) {
    this.fd = openSync(path, "w");
    this.writer = new BufferedWriter(this.fd);
  }

  write(piece: string): void {
    this.writer.write(piece);
  }

  /** Copies what was written into `out` (once: the spool is closed after). */
  copyInto(out: BufferedWriter): void {
    this.writer.flush();
    this.close();
    for (const piece of piecesOf(this.path, openInput(this.path))) out.writeBytes(piece);
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}
