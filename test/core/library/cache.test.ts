/** The CLI's library cache file: the printed lines kept as they are, and a damaged or foreign file never half-served. */
import { describe, expect, it } from "vitest";
import { LibraryCache, rowLines, unitKey } from "../../../core/library/cache.ts";
import type { SessionUnit } from "../../../core/library/discover.ts";
import type { SessionRows } from "../../../core/library/rows.ts";

function unit(path: string, bytes = 100): SessionUnit {
  return { path, agent: "pi", project: null, bytes, mtimeMs: 1_700_000_000_000, files: [{ path, role: "session", bytes, mtimeMs: 1_700_000_000_000 }] };
}

const sessionRows: SessionRows = {
  session: {
    kind: "session",
    path: "a.jsonl",
    agent: "pi",
    format: "pi",
    project: null,
    date: "2026-11-02T10:00:00.000Z",
    dateFrom: "records",
    lastDate: null,
    durationMs: null,
    model: null,
    bytes: 100,
    files: 1,
    messages: 3,
    tokens: 40,
    tokenizer: "characters ÷ 4 (an estimate)",
    compactions: 0,
    worstCompaction: null,
    factsDropped: 0,
    warnings: 0,
  },
  compactions: [],
};
const skippedRows: SessionRows = { skipped: { kind: "skipped", path: "b.json", reason: "unrecognised: a line\nbreak in the reason" } };

describe("LibraryCache", () => {
  it("round-trips each session's printed lines through its file text", () => {
    const cache = new LibraryCache();
    cache.set(unit("a.jsonl"), sessionRows);
    cache.set(unit("b.json"), skippedRows);
    const read = LibraryCache.fromBytes(cache.toBytes());
    expect(read.get(unit("a.jsonl"))).toEqual({ key: unitKey(unit("a.jsonl")), skipped: false, lines: rowLines(sessionRows), auditInputs: [] });
    expect(read.get(unit("b.json"))!.skipped).toBe(true);
    // A reason with a line break is still one line of JSON.
    expect(JSON.parse(new TextDecoder().decode(read.get(unit("b.json"))!.lines[0]!))).toEqual(skippedRows.skipped);
    expect(read.isChanged).toBe(false);
  });

  it("misses a session whose files changed size or time", () => {
    const cache = new LibraryCache();
    cache.set(unit("a.jsonl"), sessionRows);
    expect(LibraryCache.fromBytes(cache.toBytes()).get(unit("a.jsonl", 101))).toBeUndefined();
  });

  it("reads nothing from a file of another layout, a cut file or a row that is not one", () => {
    const cache = new LibraryCache();
    cache.set(unit("a.jsonl"), sessionRows);
    cache.set(unit("b.json"), skippedRows);
    const text = new TextDecoder().decode(cache.toBytes());
    const empty = (other: string) => LibraryCache.fromBytes(new TextEncoder().encode(other)).get(unit("a.jsonl"));
    expect(empty(JSON.stringify({ entries: {} }))).toBeUndefined();
    expect(empty(text.slice(0, text.lastIndexOf("\n", text.length - 2)))).toBeUndefined();
    expect(empty(text.replace('{"kind":"skipped"', '["kind","skipped"'))).toBeUndefined();
    expect(empty(text.replace(/"rows":1/, '"rows":"1"'))).toBeUndefined();
    expect(empty(text.replace('"sessionInspectorLibraryCache":3', '"sessionInspectorLibraryCache":2'))).toBeUndefined();
    // The same text read back whole is served.
    expect(empty(text)).toBeDefined();
  });

  it("forgets the sessions no longer in the folder", () => {
    const cache = new LibraryCache();
    cache.set(unit("a.jsonl"), sessionRows);
    cache.set(unit("b.json"), skippedRows);
    const read = LibraryCache.fromBytes(cache.toBytes());
    read.keepOnly(["a.jsonl"]);
    expect(read.isChanged).toBe(true);
    expect(LibraryCache.fromBytes(read.toBytes()).get(unit("b.json"))).toBeUndefined();
  });
});
