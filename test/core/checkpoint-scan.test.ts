/**
 * objectParts reads one JSON object a window at a time. Whatever the window's
 * size (one byte, so every escape, multi-byte character and number is split),
 * the parts put back together equal JSON.parse, and a damaged input is an
 * error naming the byte where it goes wrong.
 */
import { describe, expect, it } from "vitest";
import { bytesReader, objectParts, type ObjectPart } from "../../core/checkpoint-scan.ts";

const ARRAYS = new Set(["active", "archive"]);

const value = {
  schema: "session-inspector/checkpoint@1",
  source: { name: 'a "quoted" \\ name é😀', bytes: 123456789, ratio: -2.5e-3 },
  active: [{ id: "m0", blocks: [] }, 7, null, "\\"],
  archive: [{ id: "x#/blocks", payload: ["]}{", '\\"', { deep: [[[1, -2.5e3, true, null]]] }] }, { id: "y" }, 12345678],
  empty: [],
  stats: { payloads: 3 },
};

function parts(text: string, pieceBytes: number): ObjectPart[] {
  return [...objectParts(bytesReader(new TextEncoder().encode(text)), ARRAYS, pieceBytes)];
}

function rebuilt(text: string, pieceBytes: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of parts(text, pieceBytes)) {
    if (part.kind === "field") out[part.key] = part.value;
    else if (part.kind === "array") out[part.key] = [];
    else (out[part.key] as unknown[]).push(part.value);
  }
  return out;
}

describe("objectParts", () => {
  it.each([1, 2, 3, 7, 64, 1 << 20])("windows of %i bytes: equal to JSON.parse, compact and pretty-printed", (pieceBytes) => {
    for (const text of [JSON.stringify(value), JSON.stringify(value, null, 2), `  \n${JSON.stringify(value, null, "\t")}\n\n`]) {
      expect(rebuilt(text, pieceBytes)).toEqual(JSON.parse(text));
    }
  });

  it("gives the named arrays element by element, with each element's size in bytes, and other arrays whole", () => {
    const text = JSON.stringify(value);
    const archive = parts(text, 5).filter((part) => part.key === "archive");
    expect(archive.map((part) => part.kind)).toEqual(["array", "item", "item", "item"]);
    expect(archive.slice(1).map((part) => (part.kind === "item" ? part.bytes : 0))).toEqual(value.archive.map((entry) => new TextEncoder().encode(JSON.stringify(entry)).length));
    expect(parts(text, 5).filter((part) => part.key === "empty")).toEqual([{ kind: "field", key: "empty", value: [] }]);
    expect(parts("{}", 1)).toEqual([]);
  });

  it("a cut, stray or broken input is an error naming the byte, at any window size", () => {
    const text = JSON.stringify(value);
    const cases: [string, RegExp][] = [
      [text.slice(0, 60), /never ends|the file ends there/],
      [text.slice(0, text.length - 1), /expected "}" at byte \d+ \(the file ends there\)/],
      [`${text}x`, new RegExp(`unexpected data after the object at byte ${new TextEncoder().encode(text).length}`)],
      [text.replace('"archive":[', '"archive":[}'), /expected a value at byte \d+/],
      [text.replace('"payloads":3', '"payloads":3x'), /bad JSON value at bytes \d+–\d+/],
      ["[1]", /expected "\{" at byte 0/],
      ["", /expected "\{" at byte 0 \(the file ends there\)/],
    ];
    for (const pieceBytes of [1, 7, 1 << 20]) {
      for (const [broken, message] of cases) expect(() => parts(broken, pieceBytes), `${broken.slice(0, 30)}… in ${pieceBytes}-byte windows`).toThrow(message);
    }
  });
});
