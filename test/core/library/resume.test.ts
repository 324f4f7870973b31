/**
 * A grown JSON Lines session re-indexed from where its last read ended
 * (core/library/resume.ts): on every real Pi, Claude Code and Codex session,
 * cut at many lines and grown to its end, the rows equal a fresh index of
 * the grown file, whether the growth was read alone or the file read whole
 * (and then the reason is said); two growths in a row; each way the file can
 * change that a growth cannot be read alone (bytes read changed, a branch
 * moved, a reused id, an unfinished line); the CLI's cache keeps the point,
 * and `audit <folder>` says how many sessions it read from their end.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LibraryCache } from "../../../core/library/cache.ts";
import type { SessionUnit } from "../../../core/library/discover.ts";
import { indexSession } from "../../../core/library/index-session.ts";
import type { IndexedSession } from "../../../core/library/rows.ts";
import { isResumableFormat } from "../../../core/library/resume.ts";
import { loadSession } from "../../../core/session.ts";
import { runCli } from "../../helpers/cli.ts";
import { BLIND_FIXTURES, FIXTURES, describeWithFixtures, readFixture } from "../../helpers/fixtures.ts";
import { piSession } from "../../helpers/generated-pi.ts";
import { claudeSession, codexRollout } from "../../helpers/generated-transcripts.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function unitOf(bytes: Uint8Array): SessionUnit {
  return { path: "s.jsonl", agent: "unknown", project: null, bytes: bytes.length, mtimeMs: 0, files: [{ path: "s.jsonl", role: "session", bytes: bytes.length, mtimeMs: 0 }] };
}

async function index(bytes: Uint8Array, previous?: IndexedSession): Promise<IndexedSession> {
  return (await indexSession(unitOf(bytes), async () => bytes, { previous, readRange: async (_path, start, end) => bytes.slice(start, end) })) as IndexedSession;
}

/** The rows and the point, without how they were read; the id filter is sized by the read that made it, so it is left out. */
function comparable(rows: IndexedSession): unknown {
  const { tail: _tail, readWhole: _why, resume, ...rest } = rows;
  if (!resume) return rest;
  const { ids: _ids, ...point } = resume;
  return { ...rest, resume: point };
}

/** The file as its agent leaves it: ending on a line break (some published files lost theirs). */
function finished(bytes: Uint8Array): Uint8Array {
  if (bytes[bytes.length - 1] === 10) return bytes;
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  out[bytes.length] = 10;
  return out;
}

/** Byte offsets just after line breaks, at these fractions of the file's lines (and the last line but one). */
function cutsOf(bytes: Uint8Array, fractions: readonly number[]): number[] {
  const breaks: number[] = [];
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) breaks.push(at + 1);
  if (breaks.length < 3) return [];
  return [...new Set([...fractions.map((f) => breaks[Math.floor((breaks.length - 1) * f)]!), breaks[breaks.length - 2]!])].filter((cut) => cut < bytes.length);
}

interface SweepResult {
  tails: number;
  whole: Map<string, number>;
}

/** Every cut of `bytes` indexed, grown to the end from the cut's rows, compared with a fresh index. */
async function sweep(name: string, bytes: Uint8Array, fractions: readonly number[], result: SweepResult): Promise<void> {
  const fresh = comparable(await index(bytes));
  for (const cut of cutsOf(bytes, fractions)) {
    const before = await index(bytes.slice(0, cut));
    const grown = await index(bytes, before);
    expect(comparable(grown), `${name} grown from byte ${cut}`).toEqual(fresh);
    if (grown.tail) {
      expect(grown.tail.from).toBe(cut);
      result.tails++;
    } else if (before.resume) {
      expect(grown.readWhole, `${name} from byte ${cut}: why it was read whole`).toMatch(/\w/);
      result.whole.set(grown.readWhole!, (result.whole.get(grown.readWhole!) ?? 0) + 1);
    }
  }
}

/** The JSON Lines sessions of a fixtures folder in the formats a growth can be read alone for. */
function resumableFiles(root: string): string[] {
  const out: string[] = [];
  for (const dir of ["pi", "claude", "codex", "composed"]) {
    if (!existsSync(join(root, dir))) continue;
    for (const file of readdirSync(join(root, dir)).sort()) {
      if (!file.endsWith(".jsonl")) continue;
      const format = loadSession(readFileSync(join(root, dir, file))).format;
      if (isResumableFormat(format)) out.push(join(dir, file));
    }
  }
  return out;
}

describeWithFixtures("a grown session read from where its last read ended", () => {
  const files = resumableFiles(FIXTURES);

  it("equals a fresh index on every real Pi, Claude Code and Codex session, cut at many lines", async () => {
    const result: SweepResult = { tails: 0, whole: new Map() };
    const byFormat = new Map<string, number>();
    for (const file of files) {
      const tailsBefore = result.tails;
      const bytes = finished(readFixture(file));
      await sweep(file, bytes, [0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 0.99], result);
      const format = loadSession(bytes).format;
      byFormat.set(format, (byFormat.get(format) ?? 0) + result.tails - tailsBefore);
    }
    // Not vacuous: growths of each format were read alone.
    for (const format of ["pi", "claude", "codex"]) expect(byFormat.get(format), format).toBeGreaterThan(0);
    expect(result.tails).toBeGreaterThan(20);
  }, 240_000);

  it.skipIf(!existsSync(BLIND_FIXTURES))(
    "equals a fresh index on the blind sets' sessions too (sessions none of the code was written against)",
    async () => {
      const result: SweepResult = { tails: 0, whole: new Map() };
      for (const file of resumableFiles(BLIND_FIXTURES)) await sweep(file, finished(readFileSync(join(BLIND_FIXTURES, file))), [0.5, 0.9], result);
      expect(result.tails).toBeGreaterThan(50);
    },
    600_000,
  );

  it("goes on from a point a growth read alone made, growth after growth", async () => {
    const bytes = finished(readFixture("claude/entireio__cli__d0-161e0df1cb.jsonl"));
    // Cut after its last compaction, so neither growth holds one (a growth by a compaction is read whole).
    const session = loadSession(bytes);
    const after = session.recordedCompactions(session.defaultLeafId).at(-1)!.line;
    const breaks = cutsOf(
      bytes,
      Array.from({ length: 200 }, (_, i) => i / 200),
    );
    const lineOf = (offset: number) => decoder.decode(bytes.subarray(0, offset)).split("\n").length - 1;
    const later = breaks.filter((offset) => lineOf(offset) > after + 2);
    const [half, most] = [later[Math.floor(later.length / 3)]!, later[Math.floor((2 * later.length) / 3)]!];
    const first = await index(bytes.slice(0, half));
    const second = await index(bytes.slice(0, most), first);
    expect(second.tail, second.readWhole).toEqual({ from: half });
    const third = await index(bytes, second);
    expect(third.tail, third.readWhole).toEqual({ from: most });
    expect(comparable(third)).toEqual(comparable(await index(bytes)));
  }, 60_000);

  it("reads the file whole, and says why, when the bytes already read changed", async () => {
    const bytes = finished(readFixture("pi/JohnnyLai92__pi-mono__6edf3497.jsonl"));
    const [cut] = cutsOf(bytes, [0.9]);
    const before = await index(bytes.slice(0, cut));
    // The last line read, edited in place (a byte of its text changed), then the file grown.
    const edited = bytes.slice();
    const at = edited.lastIndexOf(34, cut! - 3) - 1;
    edited[at] = edited[at] === 65 ? 66 : 65;
    const grown = await index(edited, before);
    expect(grown.tail).toBeUndefined();
    expect(grown.readWhole).toBe("bytes already read changed");
    expect(comparable(grown)).toEqual(comparable(await index(edited)));
  }, 60_000);

  it("reads a Pi session whole when it grew on another branch, or by an entry that reuses an id", async () => {
    const bytes = finished(readFixture("pi/JohnnyLai92__pi-mono__6edf3497.jsonl"));
    const lines = decoder
      .decode(bytes)
      .split("\n")
      .filter((line) => line !== "");
    const entries = lines.slice(1).map((line) => JSON.parse(line) as { id: string; parentId: string | null; type: string });
    const before = await index(bytes);
    const earlier = entries[entries.length - 5]!;
    const message = (id: string, parentId: string) =>
      JSON.stringify({ type: "message", id, parentId, timestamp: "2026-12-07T10:00:00.000Z", message: { role: "user", content: [{ type: "text", text: "and one more thing" }] } });
    const cases = [
      { change: "another branch", line: message("feedbeef", earlier.id), why: /hangs below an entry before the last one read/ },
      { change: "a reused id", line: message(earlier.id, entries.at(-1)!.id), why: /may reuse an entry id/ },
    ];
    for (const { change, line, why } of cases) {
      const grownBytes = encoder.encode(`${decoder.decode(bytes)}${line}\n`);
      const grown = await index(grownBytes, before);
      expect(grown.tail, change).toBeUndefined();
      expect(grown.readWhole, change).toMatch(why);
      expect(comparable(grown), change).toEqual(comparable(await index(grownBytes)));
    }
    // The same message below the last entry is read alone, and adds one message.
    const onBranch = encoder.encode(`${decoder.decode(bytes)}${message("feedbeef", entries.at(-1)!.id)}\n`);
    const grown = await index(onBranch, before);
    expect(grown.tail).toEqual({ from: bytes.length });
    expect(grown.session.messages).toBe(before.session.messages + 1);
    expect(comparable(grown)).toEqual(comparable(await index(onBranch)));
  }, 60_000);

  it("reads the file whole while its last line is still being written, and makes no point from such a file", async () => {
    const bytes = finished(readFixture("codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl"));
    const [cut] = cutsOf(bytes, [0.95]);
    const before = await index(bytes.slice(0, cut));
    const cutShort = bytes.slice(0, bytes.length - 10);
    const grown = await index(cutShort, before);
    expect(grown.readWhole).toBe("its last line is not finished");
    expect(grown.resume).toBeUndefined();
    expect(comparable(grown)).toEqual(comparable(await index(cutShort)));
  }, 60_000);

  it("keeps the point in the CLI's cache file, and gives the last rows back with it", async () => {
    const bytes = finished(readFixture("claude/entireio__cli__f9-f6f611b469.jsonl"));
    const rows = await index(bytes);
    expect(rows.resume).toBeDefined();
    const cache = new LibraryCache();
    cache.set(unitOf(bytes), rows);
    const read = LibraryCache.fromBytes(cache.toBytes());
    const grownUnit = unitOf(new Uint8Array(bytes.length + 100));
    const { readWhole: _why, ...kept } = rows;
    expect(read.previous(grownUnit)).toEqual(kept);
  }, 60_000);

  it("`audit <folder>` reads a session that grew by turns only from where it ended: rows equal to an uncached run", () => {
    const bytes = finished(readFixture("claude/entireio__cli__d0-161e0df1cb.jsonl"));
    const [cut] = cutsOf(bytes, [0.95]);
    const temp = mkdtempSync(join(tmpdir(), "si-resume-"));
    const root = join(temp, "home");
    const place = join(root, ".claude/projects/-home-dev-app/d0-161e0df1cb.jsonl");
    mkdirSync(join(place, ".."), { recursive: true });
    const env = { ...process.env, SESSION_INSPECTOR_CACHE_DIR: join(temp, "cache") };
    writeFileSync(place, bytes.slice(0, cut));
    expect(runCli(["audit", root, "--json"], env).status).toBe(0);
    writeFileSync(place, bytes);
    const grown = runCli(["audit", root, "--json"], env);
    expect(grown.status).toBe(0);
    expect(grown.stderr).toMatch(/1 grown sessions read only from where their last read ended/);
    expect(grown.stdout).toBe(runCli(["audit", root, "--json", "--no-cache"], env).stdout);
  }, 120_000);
});

describe("a grown generated session read from where its last read ended equals a fresh index", () => {
  // Generated trees and transcripts hold what real files rarely do, all at once: reused ids, parents not
  // written, streamed lines sharing a message id, results beside the path, sidechains, boundaries.
  // Fixed seeds, so that every run of the suite checks the same cases and finds growths read alone among them
  // (most generated Pi trees are v1 or branch at random, and keep no point); other seeds were tried by hand
  // (9,000 cases on 7 Dec 2026, after the two cases they found were fixed).
  it.each([
    ["Pi trees", piSession, 300, 46],
    ["Claude Code transcripts", claudeSession, 200, 47],
    ["Codex rollouts", codexRollout, 200, 48],
  ] as const)(
    "%s, indexed at a line and grown twice",
    async (_, sessions, numRuns, seed) => {
      let tails = 0;
      await fc.assert(
        fc.asyncProperty(sessions, fc.nat(), fc.nat(), async (text, first, second) => {
          const bytes = finished(encoder.encode(text));
          const breaks = cutsOf(
            bytes,
            Array.from({ length: 50 }, (_, i) => i / 50),
          );
          if (breaks.length < 2) return;
          const [a, b] = [breaks[first % breaks.length]!, breaks[second % breaks.length]!].sort((x, y) => x - y);
          const atA = await index(bytes.slice(0, a));
          const atB = await index(bytes.slice(0, b), atA);
          expect(comparable(atB)).toEqual(comparable(await index(bytes.slice(0, b))));
          const atEnd = await index(bytes, atB.resume ? atB : atA);
          expect(comparable(atEnd)).toEqual(comparable(await index(bytes)));
          if (atB.tail) tails++;
          if (atEnd.tail) tails++;
        }),
        { numRuns, seed },
      );
      expect(tails).toBeGreaterThan(0);
    },
    240_000,
  );
});

describe("the resume point", () => {
  it("is made only for a file that ends on a line break", async () => {
    const header = JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: "2026-12-07T09:00:00.000Z", cwd: "/home/dev/app" });
    const entry = JSON.stringify({ type: "message", id: "a1", parentId: null, timestamp: "2026-12-07T09:00:01.000Z", message: { role: "user", content: "hello" } });
    expect((await index(encoder.encode(`${header}\n${entry}\n`))).resume).toMatchObject({ format: "pi", piVersion: 3, lines: 2, anchors: [{ id: "a1", parentId: null }] });
    expect((await index(encoder.encode(`${header}\n${entry}`))).resume).toBeUndefined();
  });
});
