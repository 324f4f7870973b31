/**
 * The CLI's output: text pieces encoded into one reused buffer and written
 * synchronously. A checkpoint arrives as many pieces (core/checkpoint-json.ts);
 * each is encoded and dropped as soon as it is written, so writing a 100 MB
 * checkpoint needs 4 MB of buffer, not a second copy of the checkpoint.
 */
import { closeSync, openSync, writeSync } from "node:fs";

const BUFFER_BYTES = 4 * 1024 * 1024;

/** `text` to a file, or to stdout without one, with a final newline. */
export function writeOutput(text: string | Iterable<string>, output: string | undefined): void {
  const fd = output === undefined ? 1 : openSync(output, "w");
  try {
    const writer = new BufferedWriter(fd);
    for (const piece of typeof text === "string" ? [text] : text) writer.write(piece);
    writer.write("\n");
    writer.flush();
  } finally {
    if (output !== undefined) closeSync(fd);
  }
}

export class BufferedWriter {
  private readonly buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  /** Bytes handed to the file so far. */
  written = 0;

  constructor(private readonly fd: number) {}

  write(text: string): void {
    // UTF-8 needs at most 3 bytes per UTF-16 code unit.
    if (text.length * 3 > this.buffer.length - this.used) {
      this.flush();
      if (text.length * 3 > this.buffer.length) {
        this.writeAll(Buffer.from(text, "utf8"));
        return;
      }
    }
    this.used += this.buffer.write(text, this.used, "utf8");
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
