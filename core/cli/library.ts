/**
 * `audit <folder>`: every session below a folder, every compaction its agent
 * recorded, audited; rows as JSON lines (--json), CSV (--csv) or a table,
 * worst first. Cached by path, size and modification time, so a second run
 * over an unchanged folder reads only the listing.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, homedir } from "node:os";
import { basename, join } from "node:path";
import { joinLines, LibraryCache, rowsTaken, startsWithBytes, type CachedLines } from "../library/cache.ts";
import { discoverSessions, type SessionUnit } from "../library/discover.ts";
import { CSV_COLUMNS, csvLine, type IndexedSession, type LibraryCompactionRow, type LibraryRow, type LibrarySessionRow, type LibrarySkippedRow } from "../library/rows.ts";
import { byFactsDropped, summarizeByAgent } from "../library/summary.ts";
import { libraryReportHtml } from "../report/library-html.ts";
import { stringFlag, UsageError, wholeNumberFlag, type ParsedArgs } from "./flags.ts";
import { writeOutput } from "./output.ts";
import { indexUnits } from "./library-pool.ts";
import { walkFolder } from "./library-walk.ts";

/** One session's rows, as cached and printed (CachedLines: JSON texts), in the order the folder was read. */
interface UnitLines {
  path: string;
  skipped: boolean;
  lines: readonly Uint8Array[];
}

export interface LibraryResult {
  units: UnitLines[];
  /** What the walk and discovery set aside (links out, files that are no session). */
  setAside: LibrarySkippedRow[];
  /** Sessions served from the cache, and read anew. */
  cached: number;
  indexed: number;
  /** Of the sessions read anew, compaction rows taken from their previous index (inputs unchanged: the session grew after them). */
  reused: number;
  /** Of the sessions read anew, those read from where their last read ended: only what they grew by (core/library/resume.ts). */
  tailsRead: number;
}

/** Where the CLI keeps a folder's cache: SESSION_INSPECTOR_CACHE_DIR, else the user's cache folder. */
export function libraryCacheFile(root: string): string {
  const dir = process.env.SESSION_INSPECTOR_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "session-inspector");
  const id = createHash("sha256").update(realpathSync(root)).digest("hex").slice(0, 16);
  return join(dir, `library-${id}.jsonl`);
}

function loadCache(file: string | null): LibraryCache {
  if (!file) return new LibraryCache();
  try {
    return LibraryCache.fromBytes(readFileSync(file));
  } catch {
    // No cache yet: index everything.
    return new LibraryCache();
  }
}

function saveCache(file: string | null, cache: LibraryCache): void {
  if (!file || !cache.isChanged) return;
  mkdirSync(join(file, ".."), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, cache.toBytes());
  renameSync(partial, file);
  // The cache of releases before the line layout (parsed objects, `.json`): never read again.
  rmSync(file.replace(/\.jsonl$/, ".json"), { force: true });
}

export async function auditLibrary(
  root: string,
  options: { jobs: number; cacheFile: string | null; onProgress?: (done: number, total: number, bytes: number) => void },
): Promise<LibraryResult> {
  const walk = walkFolder(root);
  const found = discoverSessions(walk.listing);
  const cache = loadCache(options.cacheFile);
  cache.keepOnly(found.sessions.map((unit) => unit.path));
  const results = new Map<string, CachedLines>();
  const toIndex: SessionUnit[] = [];
  const reuse = new Map<string, Map<string, LibraryCompactionRow>>();
  const previous = new Map<string, IndexedSession>();
  for (const unit of found.sessions) {
    const hit = cache.get(unit);
    if (hit) results.set(unit.path, hit);
    else {
      toIndex.push(unit);
      const reusable = cache.reusable(unit);
      if (reusable.size > 0) reuse.set(unit.path, reusable);
      const last = cache.previous(unit);
      if (last) previous.set(unit.path, last);
    }
  }
  let done = 0;
  let bytes = 0;
  let reused = 0;
  let tailsRead = 0;
  await indexUnits(
    root,
    toIndex,
    options.jobs,
    (unit) => reuse.get(unit.path),
    (unit, rows) => {
      if ("session" in rows && rows.tail) tailsRead++;
      reused += rowsTaken(rows, reuse.get(unit.path));
      results.set(unit.path, cache.set(unit, rows));
      done++;
      bytes += unit.bytes;
      options.onProgress?.(done, toIndex.length, bytes);
    },
    (unit) => previous.get(unit.path),
  );
  saveCache(options.cacheFile, cache);
  return {
    units: found.sessions.map((unit) => ({ path: unit.path, ...results.get(unit.path)! })),
    setAside: [...walk.skipped, ...found.skipped].map((skip) => ({ kind: "skipped", ...skip })),
    cached: found.sessions.length - toIndex.length,
    indexed: toIndex.length,
    reused,
    tailsRead,
  };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const SESSION_LINE = encoder.encode('{"kind":"session"');
const COMPACTION_LINE = encoder.encode('{"kind":"compaction"');
const SKIPPED_LINE = encoder.encode('{"kind":"skipped"');

/**
 * Every row's JSON line (UTF-8) in a fixed order: each session (in the
 * folder's order) followed by its compactions, then what was skipped, by path.
 */
export function orderedLines(result: LibraryResult): Uint8Array[] {
  const out: Uint8Array[] = [];
  const skipped: { path: string; line: Uint8Array }[] = result.setAside.map((row) => ({ path: row.path, line: encoder.encode(JSON.stringify(row)) }));
  for (const unit of result.units) {
    if (unit.skipped) skipped.push({ path: unit.path, line: unit.lines[0]! });
    else {
      // A database's unit ends with the sessions of it that could not be read: they go with the skipped.
      for (const line of unit.lines) {
        if (startsWithBytes(line, SKIPPED_LINE)) skipped.push({ path: (JSON.parse(decoder.decode(line)) as LibrarySkippedRow).path, line });
        else out.push(line);
      }
    }
  }
  skipped.sort((a, b) => a.path.localeCompare(b.path));
  for (const { line } of skipped) out.push(line);
  return out;
}

/** The rows as values, for the table and the CSV (the JSON output never parses them). */
export function parsedRows(result: LibraryResult): { rows: LibraryRow[]; sessions: LibrarySessionRow[]; compactions: LibraryCompactionRow[] } {
  const rows = orderedLines(result).map((line) => JSON.parse(decoder.decode(line)) as LibraryRow);
  return {
    rows,
    sessions: rows.filter((row): row is LibrarySessionRow => row.kind === "session"),
    compactions: rows.filter((row): row is LibraryCompactionRow => row.kind === "compaction"),
  };
}

export async function runLibraryAudit(args: ParsedArgs, root: string): Promise<number> {
  const formats = (["json", "csv", "html"] as const).filter((name) => args.flags.has(name));
  if (formats.length > 1) throw new UsageError(`choose one of ${formats.map((name) => `--${name}`).join(", ")}`);
  if (args.flags.has("with-facts") && !args.flags.has("html")) throw new UsageError("--with-facts goes with --html (the JSON and CSV rows always carry the dropped facts)");
  if (args.flags.has("output") && !args.flags.has("html")) throw new UsageError("--output goes with --html for a folder (the other outputs go to stdout)");
  const jobs = wholeNumberFlag(args, "jobs", "threads", 1) ?? availableParallelism();
  const cacheFile = args.flags.has("no-cache") ? null : libraryCacheFile(root);
  const started = Date.now();
  const progress = process.stderr.isTTY
    ? (done: number, total: number, bytes: number) => {
        const elapsed = (Date.now() - started) / 1000;
        const eta = done > 0 ? (elapsed / done) * (total - done) : 0;
        process.stderr.write(`\rindexed ${done}/${total} sessions, ${(bytes / 1e6).toFixed(1)} MB, ${elapsed.toFixed(1)} s, about ${eta.toFixed(0)} s left `);
      }
    : undefined;
  const result = await auditLibrary(root, { jobs, cacheFile, onProgress: progress });
  if (progress) process.stderr.write("\n");
  if (args.flags.has("json")) {
    process.stdout.write(joinLines(orderedLines(result)));
  } else if (args.flags.has("html")) {
    const { rows, sessions, compactions } = parsedRows(result);
    const skipped = rows.filter((row): row is LibrarySkippedRow => row.kind === "skipped");
    const page = libraryReportHtml({ folder: basename(realpathSync(root)), sessions, compactions, skipped, withFacts: args.flags.has("with-facts") });
    writeOutput(page, stringFlag(args, "output"));
  } else if (args.flags.has("csv")) {
    process.stdout.write([CSV_COLUMNS.join(","), ...parsedRows(result).rows.map(csvLine)].join("\n") + "\n");
  } else {
    process.stdout.write(libraryTable(parsedRows(result)) + "\n");
  }
  // Counted from the rows, not the units: a database is one unit and as many sessions as it holds.
  const indexed = result.units.filter((unit) => !unit.skipped);
  const count = (prefix: Uint8Array) => indexed.reduce((sum, unit) => sum + unit.lines.filter((line) => startsWithBytes(line, prefix)).length, 0);
  const sessions = count(SESSION_LINE);
  const compactions = count(COMPACTION_LINE);
  const skipped = result.units.length - indexed.length + result.setAside.length + count(SKIPPED_LINE);
  const reused = result.reused > 0 ? `, ${result.reused} compactions of changed sessions taken from their last audit (what they read is unchanged)` : "";
  const tails = result.tailsRead > 0 ? `, ${result.tailsRead} grown sessions read only from where their last read ended` : "";
  process.stderr.write(
    `${sessions} sessions, ${compactions} recorded compactions, ${skipped} skipped; ${result.cached} of ${result.cached + result.indexed} candidates from the cache${reused}${tails}; ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return 0;
}

/** Columns padded to their widest cell; numbers right-aligned. */
function columns(rows: string[][], rightAligned: readonly number[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (rightAligned.includes(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd(),
  );
}

function libraryTable(result: { sessions: LibrarySessionRow[]; compactions: LibraryCompactionRow[] }): string {
  const pct = (value: number | null) => (value === null ? "–" : `${Math.round(value * 100)}%`);
  const agents = summarizeByAgent(result.sessions, result.compactions).map((agent) => [
    agent.agent,
    String(agent.sessions),
    String(agent.compactions),
    pct(agent.medianKeptRecorded),
    pct(agent.medianKeptTransparent),
    String(agent.factsDropped),
  ]);
  const sessions = [...result.sessions]
    .sort(byFactsDropped)
    .map((row) => [
      String(row.factsDropped),
      row.worstCompaction ? `#${row.worstCompaction.index}: ${row.worstCompaction.recorded}/${row.worstCompaction.asked}` : "–",
      String(row.compactions),
      row.agent,
      row.path,
    ]);
  return [
    "Facts present in context (literal reader) after each agent's own compactions, against transparent compaction at the same moments:",
    ...columns([["agent", "sessions", "compactions", "median kept", "transparent", "facts dropped"], ...agents], [1, 2, 3, 4, 5]),
    "",
    "Sessions, most facts dropped first:",
    ...columns([["facts dropped", "worst compaction", "compactions", "agent", "session"], ...sessions], [0, 1, 2]),
  ].join("\n");
}
