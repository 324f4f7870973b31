/** The CLI's buffered writer: any pieces, any buffer size, the same bytes as encoding the joined text. */
import fc from "fast-check";
import { chmodSync, closeSync, existsSync, lstatSync, mkdtempSync, openSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileError } from "../../core/cli/input.ts";
import { BufferedWriter, writeOutput } from "../../core/cli/output.ts";

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

describe("writeOutput to a file", () => {
  const dir = mkdtempSync(join(tmpdir(), "si-write-"));

  it("writes the pieces and a final newline, and leaves nothing else behind", () => {
    const file = join(dir, "checkpoint.json");
    writeOutput(["{", '"a":1', "}"], file);
    expect(readFileSync(file, "utf8")).toBe('{"a":1}\n');
    writeOutput("replaced", file);
    expect(readFileSync(file, "utf8")).toBe("replaced\n");
    expect(readdirSync(dir)).toEqual(["checkpoint.json"]);
  });

  it("leaves an existing file as it was, and no partial file, when writing fails halfway", () => {
    const file = join(dir, "kept.json");
    writeFileSync(file, "the earlier checkpoint\n");
    function* failing(): Generator<string> {
      yield "x".repeat(10 * 1024 * 1024); // more than one buffer: some of it reached the disk
      throw new Error("the serializer failed");
    }
    // Not an I/O error: it goes on as it is, not as "cannot write".
    expect(() => writeOutput(failing(), file)).toThrow(/^the serializer failed$/);
    expect(readFileSync(file, "utf8")).toBe("the earlier checkpoint\n");
    expect(readdirSync(dir).filter((name) => name.startsWith("kept"))).toEqual(["kept.json"]);
  });

  it("keeps a replaced file's permissions, and writes through a symbolic link", () => {
    const file = join(dir, "private.json");
    writeFileSync(file, "old\n");
    chmodSync(file, 0o600);
    writeOutput("new", file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const link = join(dir, "latest.json");
    symlinkSync(file, link);
    writeOutput("through the link", link);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(file, "utf8")).toBe("through the link\n");
  });

  it("names the file and the reason when it cannot be written", () => {
    const cases: [string, string][] = [
      [join(dir, "no-such-dir", "out.json"), "no such directory"],
      [dir, "is a directory"],
      ["/dev/full", "no space left on the device"],
    ];
    for (const [file, reason] of cases) {
      let thrown: unknown;
      try {
        writeOutput("{}", file);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(FileError);
      expect(thrown).toMatchObject({ file, line: 0, reason });
    }
    expect(existsSync(join(dir, "no-such-dir"))).toBe(false);
  });

  it("writes devices directly (never renames over /dev/null)", () => {
    writeOutput("discarded", "/dev/null");
    expect(existsSync("/dev/null.partial")).toBe(false);
    expect(readdirSync("/dev").some((name) => name.includes(".partial"))).toBe(false);
  });
});
