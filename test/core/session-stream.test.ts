/**
 * The streaming loader against the whole-bytes loader: every real fixture,
 * cut into random slices (multi-byte characters and CRLF pairs split
 * included), and generated texts of every shape (JSON Lines, one object,
 * arrays, blank lead, broken lines, bad bytes) give the same session, or the
 * same error, as loadSession on the whole file.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PieceDecoder } from "../../core/decode.ts";
import { JsonLinesParser, parseJsonLines } from "../../core/jsonl.ts";
import type { Session } from "../../core/model.ts";
import { readJsonLinesRecords } from "../../core/formats/detect.ts";
import { loadSession, sessionFromReader } from "../../core/session.ts";
import { StreamingSessionLoader } from "../../core/session-stream.ts";
import { allFixtures, readFixture, describeWithFixtures } from "../helpers/fixtures.ts";

const encoder = new TextEncoder();

/** What a session is, for comparison: every entry, leaf, warning and branch. */
function shape(session: Session) {
  return {
    format: session.format,
    formatVersion: session.formatVersion,
    header: session.header,
    entries: session.entries,
    leaves: session.leaves,
    defaultLeafId: session.defaultLeafId,
    warnings: session.warnings,
    toolCallIds: [...session.toolCallIds],
    offTreeRecords: session.offTreeRecords,
    branches: session.leaves.map((leaf) => session.branch(leaf)),
    recorded: session.recordedContext(null),
  };
}

function outcome(load: () => Session): unknown {
  try {
    return { ok: shape(load()) };
  } catch (error) {
    return { error: error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error) };
  }
}

function streamed(bytes: Uint8Array, cuts: number[], loader = new StreamingSessionLoader()): Session {
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    const to = Math.min(bytes.length, cut);
    if (to <= from) continue;
    loader.push(bytes.subarray(from, to));
    from = to;
  }
  loader.push(bytes.subarray(from));
  return loader.finish(bytes);
}

function cutsFor(seed: number, length: number, count: number): number[] {
  // A small deterministic generator: the same cuts on every run of the suite.
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % Math.max(1, length);
  });
}

describeWithFixtures("every fixture, streamed in random slices", () => {
  for (const name of allFixtures()) {
    it(name, () => {
      const bytes = readFixture(name);
      const whole = outcome(() => loadSession(bytes));
      expect(whole).toHaveProperty("ok");
      for (const [seed, count] of [
        [1, 1],
        [7, 9],
        [42, 60],
      ] as const) {
        const loader = new StreamingSessionLoader();
        expect(outcome(() => streamed(bytes, cutsFor(seed, bytes.length, count), loader))).toEqual(whole);
        // JSON Lines really streamed; a single JSON value is read whole.
        expect(loader.streamed).toBe(name.endsWith(".jsonl"));
      }
    });
  }
});

const piLine = (i: number, text: string) =>
  JSON.stringify({
    type: "message",
    id: `m${i}`,
    parentId: i === 0 ? null : `m${i - 1}`,
    timestamp: "t",
    message: { role: i % 2 ? "assistant" : "user", content: [{ type: "text", text }] },
  });
const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00Z", cwd: "/" });

/** Texts of every shape the loader must tell apart. */
const textArb = fc.oneof(
  // Pi JSON Lines with Unicode, CRLF or LF, maybe a broken line, maybe no final newline.
  fc
    .record({
      texts: fc.array(fc.string({ unit: "grapheme", maxLength: 20 }), { minLength: 1, maxLength: 12 }),
      crlf: fc.boolean(),
      broken: fc.option(fc.nat(12)),
      finalNewline: fc.boolean(),
      lead: fc.constantFrom("", "\n\n", "  \t", "\uFEFF"),
    })
    .map(({ texts, crlf, broken, finalNewline, lead }) => {
      const lines = [header, ...texts.map((text, i) => piLine(i, text))];
      if (broken !== null && broken < lines.length) lines[broken] = lines[broken]!.slice(0, -3);
      const eol = crlf ? "\r\n" : "\n";
      return lead + lines.join(eol) + (finalNewline ? eol : "");
    }),
  // One JSON value: a message array, a {messages} wrapper on one line or pretty-printed.
  fc.array(fc.string({ unit: "grapheme", maxLength: 12 }), { minLength: 1, maxLength: 5 }).chain((texts) => {
    const messages = texts.map((text, i) => ({ role: i % 2 ? "assistant" : "user", content: text }));
    return fc.constantFrom(JSON.stringify(messages), JSON.stringify({ messages }), JSON.stringify({ messages }, null, 2), `\n ${JSON.stringify(messages, null, 1)}\n`);
  }),
  // Odd inputs: empty, blank, HTML, run-together records, a lone object.
  fc.constantFrom("", "   \n\n", "<!doctype html><p>hi", `${header}\n${piLine(0, "a")}${piLine(1, "b")}\n`, `${header}\n`, '{"messages": 3}', "not json\nat all\n"),
);

describe("generated texts, streamed in random slices", () => {
  it("the same session or the same error as the whole-bytes load", () => {
    fc.assert(
      fc.property(textArb, fc.array(fc.nat(), { maxLength: 8 }), (text, rawCuts) => {
        const bytes = encoder.encode(text);
        const cuts = rawCuts.map((cut) => cut % (bytes.length + 1));
        const whole = outcome(() => loadSession(bytes));
        expect(outcome(() => streamed(bytes, cuts))).toEqual(whole);
        // The CLI's decoder (pieces decoded on their own) gives the same.
        expect(outcome(() => streamed(bytes, cuts, new StreamingSessionLoader({}, new PieceDecoder())))).toEqual(whole);
      }),
      { numRuns: 400 },
    );
  });

  it("bytes that are not UTF-8, or hold a NUL, fail exactly as the whole-bytes load does", () => {
    const good = encoder.encode(`${header}\n${piLine(0, "héllo")}\n${piLine(1, "wörld")}\n`);
    for (const bad of [Uint8Array.of(...good.subarray(0, 80), 0xff, 0xfe, ...good.subarray(80)), Uint8Array.of(...good.subarray(0, 120), 0, ...good.subarray(120))]) {
      const whole = outcome(() => loadSession(bad));
      expect(whole).toHaveProperty("error");
      for (let cut = 1; cut < bad.length; cut += 17) {
        expect(outcome(() => streamed(bad, [cut]))).toEqual(whole);
        expect(outcome(() => streamed(bad, [cut], new StreamingSessionLoader({}, new PieceDecoder())))).toEqual(whole);
      }
    }
  });
});

describe("JsonLinesParser", () => {
  it("any split of a text gives the whole text's records and warnings", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.json(), fc.constantFrom("", " ", "{bad", "{}{}", "\r")), { maxLength: 10 }), fc.array(fc.nat(), { maxLength: 6 }), (lines, rawCuts) => {
        const text = lines.join("\n");
        const parser = new JsonLinesParser(false);
        let from = 0;
        for (const cut of rawCuts.map((c) => c % (text.length + 1)).sort((a, b) => a - b)) {
          parser.push(text.slice(from, Math.max(from, cut)));
          from = Math.max(from, cut);
        }
        parser.push(text.slice(from));
        expect(parser.finish()).toEqual(parseJsonLines(text, false));
      }),
      { numRuns: 300 },
    );
  });
});

/** The reference: every record collected first, then read (what strict mode and the other formats do). */
function readCollected(text: string): Session {
  return sessionFromReader(readJsonLinesRecords(parseJsonLines(text.replace(/^\uFEFF/, ""), false), { strict: false }), false);
}

describeWithFixtures("reading Pi records one at a time as they are parsed", () => {
  it("gives exactly the session read from the collected records, on every JSON Lines fixture", () => {
    for (const name of allFixtures().filter((file) => file.endsWith(".jsonl"))) {
      const text = new TextDecoder().decode(readFixture(name));
      expect(
        outcome(() => loadSession(text)),
        name,
      ).toEqual(outcome(() => readCollected(text)));
    }
  });

  it("and on generated Pi files with odd records (v1 ids, no type, a second header, no id, v1 compactions)", () => {
    const v1Header = JSON.stringify({ type: "session", id: "s1", timestamp: "t", cwd: "/" });
    const oddArb = fc.constantFrom(
      JSON.stringify({ message: { role: "user", content: "no type" } }),
      header,
      JSON.stringify({ type: "message", parentId: null, message: { role: "user", content: "no id" } }),
      JSON.stringify({ type: "compaction", summary: "earlier", firstKeptEntryIndex: 2, tokensBefore: 10 }),
      JSON.stringify({ type: "label", id: "lb", parentId: "m0", label: "x" }),
      "[1,2]",
      "{broken",
    );
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 8 }).map((text) => ({ text })),
            oddArb.map((odd) => ({ odd })),
          ),
          { minLength: 1, maxLength: 14 },
        ),
        (v1, items) => {
          const lines = [v1 ? v1Header : header, ...items.map((item, i) => ("odd" in item ? item.odd : piLine(i, item.text)))];
          const text = lines.join("\n") + "\n";
          expect(outcome(() => loadSession(text))).toEqual(outcome(() => readCollected(text)));
        },
      ),
      { numRuns: 400 },
    );
  });
});

/** The CLI's way: one reused buffer, no second read (finish without the whole bytes). */
function streamedOnce(bytes: Uint8Array, cuts: number[], options = {}): { session: Session; streamed: boolean } {
  const loader = new StreamingSessionLoader(options, new PieceDecoder());
  const reused = Buffer.alloc(bytes.length + 1);
  let from = 0;
  for (const cut of [...cuts, bytes.length].sort((a, b) => a - b)) {
    const to = Math.min(bytes.length, cut);
    if (to <= from) continue;
    reused.set(bytes.subarray(from, to));
    loader.push(reused.subarray(0, to - from));
    reused.fill(0x7b, 0, to - from); // what the next read leaves behind
    from = to;
  }
  const session = loader.finish();
  return { session, streamed: loader.streamed };
}

describe("one read: finishing from the loader's own copy", () => {
  it("gives the whole-bytes session or error for generated texts, strict or not", () => {
    fc.assert(
      fc.property(textArb, fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (text, rawCuts, strict) => {
        const bytes = encoder.encode(text);
        const cuts = rawCuts.map((cut) => cut % (bytes.length + 1));
        expect(outcome(() => streamedOnce(bytes, cuts, { strict }).session)).toEqual(outcome(() => loadSession(bytes, { strict })));
      }),
      { numRuns: 300 },
    );
  });

  it("names the line of a NUL or of bytes that are not UTF-8 anywhere, also after the copy was dropped", () => {
    // A literal U+FFFD early on: decodeSessionBytes names the first replacement character it sees.
    const lines = [header, ...Array.from({ length: 30 }, (_, i) => piLine(i, `line ${i} é€😀${i === 0 ? "\uFFFD" : ""}`))];
    const good = encoder.encode(lines.join("\n") + "\n");
    fc.assert(
      fc.property(
        fc.nat(good.length),
        fc.constantFrom([0], [0xff], [0xc3], [0xe2, 0x82], [0xff, 0x00]),
        fc.option(fc.nat(good.length)),
        fc.array(fc.nat(), { maxLength: 6 }),
        (at, bad, nulAt, rawCuts) => {
          const bytes = Array.from(good);
          bytes.splice(at, 0, ...bad);
          if (nulAt !== null) bytes.splice(nulAt % bytes.length, 0, 0);
          const damaged = Uint8Array.from(bytes);
          const cuts = rawCuts.map((cut) => cut % (damaged.length + 1));
          expect(outcome(() => streamedOnce(damaged, cuts).session)).toEqual(outcome(() => loadSession(damaged)));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("a file that ends in NUL bytes (a write that never finished) is read up to them with a warning, streamed or whole; strict refuses it", () => {
    const lines = [header, ...Array.from({ length: 30 }, (_, i) => piLine(i, `line ${i} é€`))];
    const good = encoder.encode(lines.join("\n") + "\n");
    for (const tail of [new Uint8Array(3772), Uint8Array.of(0, 0, 10, 0, 0, 13, 10, 0)]) {
      const padded = Uint8Array.of(...good, ...tail);
      const whole = loadSession(padded);
      // The same session as the file without its tail, with one warning more.
      expect({ ...shape(whole), warnings: whole.warnings.slice(0, -1) }).toEqual(shape(loadSession(good)));
      expect(whole.warnings.at(-1)).toEqual({
        line: lines.length + 1,
        message: expect.stringMatching(/^the file ends in \d+ NUL bytes from line \d+ \(a write that never finished\): read up to there$/),
      });
      for (const cuts of [[], [good.length], [good.length + 1], cutsFor(5, padded.length, 7)])
        expect(outcome(() => streamedOnce(padded, cuts).session)).toEqual(outcome(() => loadSession(padded)));
      expect(outcome(() => loadSession(padded, { strict: true }))).toHaveProperty("error");
    }
    // Bad text before the NUL-filled end is named as bad text, however the pieces fall (found by the property test below).
    const badBefore = Uint8Array.of(...good.subarray(0, 229), 0xff, ...good.subarray(229), 0, 0);
    for (const cut of [229, 230, good.length, good.length + 1]) expect(outcome(() => streamedOnce(badBefore, [cut]).session)).toEqual(outcome(() => loadSession(badBefore)));
    // A NUL with text after it is binary data still, and a file of NULs alone is no session.
    expect(outcome(() => loadSession(Uint8Array.of(...good.subarray(0, 50), 0, ...good.subarray(50))))).toHaveProperty("error");
    expect(outcome(() => loadSession(new Uint8Array(64)))).toEqual({ error: expect.stringContaining("only NUL bytes") });
  });

  it("streams JSON Lines fixtures without keeping the copy, and reads the others from it", () => {
    for (const name of allFixtures().filter((file) => !file.startsWith("copilot/"))) {
      const bytes = readFixture(name);
      const once = streamedOnce(bytes, cutsFor(3, bytes.length, 20));
      expect(shape(once.session), name).toEqual(shape(loadSession(bytes)));
      expect(once.streamed, name).toBe(name.endsWith(".jsonl"));
    }
  });
});
