/** The CLI's buffered writer: any pieces, any buffer size, the same bytes as encoding the joined text. */
import fc from "fast-check";
import { closeSync, mkdtempSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BufferedWriter } from "../../core/cli/output.ts";

const temp = mkdtempSync(join(tmpdir(), "si-output-"));

function writeThrough(pieces: string[], bufferBytes?: number): Buffer {
  const file = join(temp, "out");
  const fd = openSync(file, "w");
  const writer = new BufferedWriter(fd, bufferBytes);
  for (const piece of pieces) writer.write(piece);
  writer.flush();
  closeSync(fd);
  expect(writer.written).toBe(Buffer.byteLength(pieces.join("")));
  return readFileSync(file);
}

describe("BufferedWriter", () => {
  it("writes exactly the UTF-8 of the joined pieces, whatever the buffer size", () => {
    const pieceArb = fc.oneof(fc.string({ unit: "grapheme", maxLength: 60 }), fc.constantFrom("😀😀😀", "é", "東京", "", "\n"));
    fc.assert(
      fc.property(fc.array(pieceArb, { maxLength: 30 }), fc.integer({ min: 1, max: 64 }), (pieces, bufferBytes) => {
        expect(writeThrough(pieces, bufferBytes).equals(Buffer.from(pieces.join(""), "utf8"))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("passes a piece larger than its buffer through in slices without splitting a surrogate pair", () => {
    // Emoji at every offset make some slice end on the first half of a pair.
    const big = Array.from({ length: 3000 }, (_, i) => "x".repeat(i % 7) + "😀").join("");
    expect(writeThrough(["head", big, "tail"], 1000).equals(Buffer.from("head" + big + "tail", "utf8"))).toBe(true);
    expect(writeThrough([big], 4 * 1024 * 1024).equals(Buffer.from(big, "utf8"))).toBe(true);
  });
});
