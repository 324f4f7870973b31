/**
 * A multi-byte character cut by the CLI's read pieces: the carried bytes must
 * be a copy, because the piece buffer is reused for the next read. With a view
 * the checkpoint got a different character (or the loader silently re-read the
 * whole file). The piece size is injected so the file stays small.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs } from "../../core/cli/flags.ts";
import { readSessionFile } from "../../core/cli/input.ts";
import { PieceDecoder } from "../../core/decode.ts";
import { loadSession } from "../../core/session.ts";
import { multiByteSession } from "./compose.ts";

const temp = mkdtempSync(join(tmpdir(), "si-boundary-"));

describe("a character cut by a read piece", () => {
  const text = multiByteSession();
  const bytes = new TextEncoder().encode(text);
  const file = join(temp, "multibyte.jsonl");
  writeFileSync(file, bytes);
  const expected = loadSession(bytes);

  it("PieceDecoder keeps its carry when the caller overwrites the piece it was given", () => {
    for (let size = 2; size <= 37; size++) {
      const decoder = new PieceDecoder();
      const reused = Buffer.alloc(size);
      let out = "";
      for (let at = 0; at < bytes.length; at += size) {
        const n = Math.min(size, bytes.length - at);
        reused.set(bytes.subarray(at, at + n));
        out += decoder.decode(reused.subarray(0, n));
        reused.fill(0xe2); // what the next read would leave behind, at the latest
      }
      out += decoder.finish();
      expect(out, `piece size ${size}`).toBe(text);
    }
  });

  it("readSessionFile streams the right characters for every small piece size", () => {
    for (let size = 5; size <= 70; size++) {
      const read = readSessionFile(parseArgs(["inspect", file]), size);
      expect(read.streamed, `piece size ${size} streamed`).toBe(true);
      expect(read.session.branch(null), `piece size ${size}`).toEqual(expected.branch(null));
    }
  });
});
