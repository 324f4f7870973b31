/**
 * `audit <folder>`: every session below a folder, every compaction its agent
 * recorded, audited; rows as JSON lines (--json), CSV (--csv) or a table,
 * worst first. Cached by path, size and modification time, so a second run
 * over an unchanged folder reads only the listing.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { availableParallelism, homedir } from "node:os";
import { join } from "node:path";
import { LibraryCache, type CachedRows } from "../library/cache.ts";
import { discoverSessions, type SessionUnit } from "../library/discover.ts";
import { CSV_COLUMNS, csvLine, type LibraryCompactionRow, type LibraryRow, type LibrarySessionRow, type LibrarySkippedRow, type SessionRows } from "../library/rows.ts";
import { byFactsDropped, summarizeByAgent } from "../library/summary.ts";
import { wholeNumberFlag, type ParsedArgs } from "./flags.ts";
import { indexUnits } from "./library-pool.ts";
import { walkFolder } from "./library-walk.ts";

export interface LibraryResult {
  sessions: LibrarySessionRow[];
  compactions: LibraryCompactionRow[];
  skipped: LibrarySkippedRow[];
  /** Sessions served from the cache, and read anew. */
  cached: number;
  indexed: number;
}

/** Where the CLI keeps a folder's cache: SESSION_INSPECTOR_CACHE_DIR, else the user's cache folder. */
export function libraryCacheFile(root: string): string {
  const dir = process.env.SESSION_INSPECTOR_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "session-inspector");
  const id = createHash("sha256").update(realpathSync(root)).digest("hex").slice(0, 16);
  return join(dir, `library-${id}.json`);
}

function loadCache(file: string | null): LibraryCache {
  if (!file) return new LibraryCache();
  try {
    const saved = JSON.parse(readFileSync(file, "utf8")) as { entries?: Record<string, CachedRows> };
    return new LibraryCache(saved.entries ?? {});
  } catch {
    // No cache yet, or one this version cannot read: index everything.
    return new LibraryCache();
  }
}

function saveCache(file: string | null, cache: LibraryCache): void {
  if (!file || !cache.isChanged) return;
  mkdirSync(join(file, ".."), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify({ entries: cache.toJSON() }));
  renameSync(partial, file);
}

export async function auditLibrary(
  root: string,
  options: { jobs: number; cacheFile: string | null; onProgress?: (done: number, total: number, bytes: number) => void },
): Promise<LibraryResult> {
  const walk = walkFolder(root);
  const found = discoverSessions(walk.listing);
  const cache = loadCache(options.cacheFile);
  cache.keepOnly(found.sessions.map((unit) => unit.path));
  const results = new Map<string, SessionRows>();
  const toIndex: SessionUnit[] = [];
  for (const unit of found.sessions) {
    const hit = cache.get(unit);
    if (hit) results.set(unit.path, hit);
    else toIndex.push(unit);
  }
  let done = 0;
  let bytes = 0;
  await indexUnits(root, toIndex, options.jobs, (unit, rows) => {
    results.set(unit.path, rows);
    cache.set(unit, rows);
    done++;
    bytes += unit.bytes;
    options.onProgress?.(done, toIndex.length, bytes);
  });
  saveCache(options.cacheFile, cache);

  const out: LibraryResult = { sessions: [], compactions: [], skipped: [], cached: found.sessions.length - toIndex.length, indexed: toIndex.length };
  for (const unit of found.sessions) {
    const rows = results.get(unit.path)!;
    if ("skipped" in rows) out.skipped.push(rows.skipped);
    else {
      out.sessions.push(rows.session);
      out.compactions.push(...rows.compactions);
    }
  }
  for (const skip of [...walk.skipped, ...found.skipped]) out.skipped.push({ kind: "skipped", ...skip });
  out.skipped.sort((a, b) => a.path.localeCompare(b.path));
  return out;
}

/** Rows in a fixed order: each session (by path) followed by its compactions, then what was skipped. */
export function orderedRows(result: LibraryResult): LibraryRow[] {
  const byPath = new Map<string, LibraryCompactionRow[]>();
  for (const row of result.compactions) byPath.set(row.path, [...(byPath.get(row.path) ?? []), row]);
  const rows: LibraryRow[] = [];
  for (const session of result.sessions) rows.push(session, ...(byPath.get(session.path) ?? []));
  rows.push(...result.skipped);
  return rows;
}

export async function runLibraryAudit(args: ParsedArgs, root: string): Promise<number> {
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
  const rows = orderedRows(result);
  if (args.flags.has("json")) {
    process.stdout.write(rows.map((row) => JSON.stringify(row)).join("\n") + (rows.length ? "\n" : ""));
  } else if (args.flags.has("csv")) {
    process.stdout.write([CSV_COLUMNS.join(","), ...rows.map(csvLine)].join("\n") + "\n");
  } else {
    process.stdout.write(libraryTable(result) + "\n");
  }
  process.stderr.write(
    `${result.sessions.length} sessions, ${result.compactions.length} recorded compactions, ${result.skipped.length} skipped; ${result.cached} of ${result.cached + result.indexed} candidates from the cache; ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
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

function libraryTable(result: LibraryResult): string {
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
