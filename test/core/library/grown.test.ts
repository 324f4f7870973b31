/**
 * A session that grew since the library last indexed it: the compactions
 * whose inputs are unchanged take their rows from the last index instead of
 * being audited again, and the rows equal a fresh index of the grown file,
 * on real sessions of each format that records compactions; an edit before a
 * compaction changes its fingerprint, so its row is made again; and the CLI's
 * `audit <folder>` says how many it took.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { LibraryCache } from "../../../core/library/cache.ts";
import type { SessionUnit } from "../../../core/library/discover.ts";
import { indexSession, reusableAudits } from "../../../core/library/index-session.ts";
import type { IndexedSession, LibraryCompactionRow, SessionRows } from "../../../core/library/rows.ts";
import { loadSession } from "../../../core/session.ts";
import { runCli } from "../../helpers/cli.ts";
import { describeWithFixtures, readFixture } from "../../helpers/fixtures.ts";

/** Sessions with two recorded compactions or more: cut between the first two, the first is old and the second new. */
const GROWN = ["pi/badlogic__pi-mono__before-compaction.jsonl", "codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl"];
/** Sessions whose last compaction is followed by more records: grown after it, nothing new to audit. */
const GROWN_AFTER_LAST = ["claude/entireio__cli__d0-161e0df1cb.jsonl", "copilot/polecatspeaks__StarCar__events-11-9681650804.jsonl"];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function unitOf(path: string, bytes: Uint8Array): SessionUnit {
  return { path, agent: "unknown", project: null, bytes: bytes.length, mtimeMs: 0, files: [{ path, role: "session", bytes: bytes.length, mtimeMs: 0 }] };
}

async function index(path: string, bytes: Uint8Array, previous?: SessionRows): Promise<IndexedSession> {
  return (await indexSession(unitOf(path, bytes), async () => bytes, { reuse: previous && reusableAudits(previous) })) as IndexedSession;
}

/** The file's first `lines` lines, each with its line break. */
function firstLines(bytes: Uint8Array, lines: number): Uint8Array {
  return encoder.encode(
    decoder
      .decode(bytes)
      .split("\n")
      .slice(0, lines)
      .map((line) => `${line}\n`)
      .join(""),
  );
}

/** Rows marked as taken from the previous index: a row that carries the mark was not audited again. */
function marked(rows: IndexedSession): IndexedSession {
  return { ...rows, compactions: rows.compactions.map((row) => ({ ...row, takenFromPrevious: true }) as LibraryCompactionRow) };
}
const wasTaken = (row: LibraryCompactionRow) => (row as LibraryCompactionRow & { takenFromPrevious?: boolean }).takenFromPrevious === true;

describeWithFixtures("re-indexing a grown session", () => {
  for (const fixture of GROWN) {
    it(`audits only the new compaction of ${fixture}, and equals a fresh index`, async () => {
      const bytes = readFixture(fixture);
      const session = loadSession(bytes);
      const [first, second] = session.recordedCompactions(session.defaultLeafId);
      const before = await index("s.jsonl", firstLines(bytes, second!.line - 1));
      expect(before.compactions.map((row) => row.index)).toEqual([first!.index]);
      const grown = await index("s.jsonl", bytes, marked(before));
      expect(grown.compactions.map(wasTaken)).toEqual([true, false]);
      const fresh = await index("s.jsonl", bytes);
      expect(grown.auditInputs).toEqual(fresh.auditInputs);
      expect(grown.compactions.map(({ takenFromPrevious: _, ...row }: LibraryCompactionRow & { takenFromPrevious?: boolean }) => row)).toEqual(fresh.compactions);
      expect(grown.session).toEqual(fresh.session);
    }, 60_000);
  }

  for (const fixture of GROWN_AFTER_LAST) {
    it(`audits nothing again when ${fixture} grew after its last compaction`, async () => {
      const bytes = readFixture(fixture);
      const session = loadSession(bytes);
      const last = session.recordedCompactions(session.defaultLeafId).at(-1)!;
      const lines = decoder.decode(bytes).split("\n").length;
      const cut = Math.min(lines - 2, last.line + 10);
      const before = await index("s.jsonl", firstLines(bytes, cut));
      const grown = await index("s.jsonl", bytes, marked(before));
      expect(grown.compactions.length).toBe(before.compactions.length);
      expect(grown.compactions.every(wasTaken)).toBe(true);
      expect(grown.auditInputs).toEqual((await index("s.jsonl", bytes)).auditInputs);
    }, 60_000);
  }

  it("audits a compaction again when a message before it changed, and never takes a row of another session", async () => {
    const bytes = readFixture(GROWN[0]!);
    const session = loadSession(bytes);
    const first = session.recordedCompactions(session.defaultLeafId)[0]!;
    const text = decoder.decode(bytes);
    const lines = text.split("\n");
    // A user message before the compaction, edited in place (a rewrite, not a growth).
    const at = lines.findIndex((line, i) => i < first.line - 1 && line.includes('"role":"user"'));
    expect(at).toBeGreaterThanOrEqual(0);
    const edited = encoder.encode([...lines.slice(0, at), lines[at]!.replace(/"text":"/, '"text":"(edited) '), ...lines.slice(at + 1)].join("\n"));
    const previous = marked(await index("s.jsonl", bytes));
    const rewritten = await index("s.jsonl", edited, previous);
    expect(rewritten.compactions.some(wasTaken)).toBe(false);
    // The same bytes under another path: the fingerprint names the row's path, so nothing is shared.
    const moved = await index("elsewhere.jsonl", bytes, previous);
    expect(moved.compactions.some(wasTaken)).toBe(false);
    expect(moved.compactions.every((row) => row.path === "elsewhere.jsonl")).toBe(true);
  }, 60_000);

  it("keeps the fingerprints in the CLI's cache file and serves them only to the same version", async () => {
    const bytes = readFixture(GROWN[0]!);
    const unit = unitOf("s.jsonl", bytes);
    const rows = await index("s.jsonl", bytes);
    const cache = new LibraryCache();
    cache.set(unit, rows);
    const read = LibraryCache.fromBytes(cache.toBytes());
    const grownUnit = { ...unit, bytes: unit.bytes + 1, files: [{ ...unit.files[0]!, bytes: unit.bytes + 1 }] };
    expect(read.get(grownUnit)).toBeUndefined();
    const reusable = read.reusable(grownUnit);
    expect([...reusable.keys()]).toEqual(rows.auditInputs);
    expect([...reusable.values()]).toEqual(rows.compactions);
    // A cache written by another version of the audit: its rows are not taken, not even in part.
    const older = LibraryCache.fromBytes(encoder.encode(decoder.decode(cache.toBytes()).replace(/"key":"\d+/, '"key":"3')));
    expect(older.reusable(grownUnit).size).toBe(0);
  }, 60_000);

  it("`audit <folder>` on a folder where a session grew by a compaction: one taken, one audited, rows equal to an uncached run", () => {
    const bytes = readFixture(GROWN[0]!);
    const session = loadSession(bytes);
    const second = session.recordedCompactions(session.defaultLeafId)[1]!;
    const temp = mkdtempSync(join(tmpdir(), "si-grown-"));
    const root = join(temp, "home");
    const place = join(root, ".pi/agent/sessions/--home-dev--/2026-11-02_session.jsonl");
    mkdirSync(join(place, ".."), { recursive: true });
    const env = { ...process.env, SESSION_INSPECTOR_CACHE_DIR: join(temp, "cache") };
    writeFileSync(place, firstLines(bytes, second.line - 1));
    const first = runCli(["audit", root, "--json"], env);
    expect(first.status).toBe(0);
    expect(first.stderr).toMatch(/1 sessions, 1 recorded compactions, .*0 of 1 candidates from the cache;/);
    writeFileSync(place, bytes);
    const grown = runCli(["audit", root, "--json"], env);
    expect(grown.stderr).toMatch(/1 sessions, 2 recorded compactions, .*0 of 1 candidates from the cache, 1 compactions of changed sessions taken from their last audit/);
    expect(grown.stdout).toBe(runCli(["audit", root, "--json", "--no-cache"], env).stdout);
  }, 120_000);
});
