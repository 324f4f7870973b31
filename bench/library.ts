/**
 * The library benchmark: a generated library (≥ 1,000 sessions, ≥ 1 GB by
 * default, from the real fixtures) indexed by `audit <folder>` as a whole
 * process, as a ratio to the single-threaded parse floor of the same files
 * measured in the same run (read + JSON.parse of every line, or of the whole
 * file for one-value JSON). Then a second run over the unchanged folder (the
 * cache), a third after a day's work (one session in ten of those cut short
 * grown by a tenth of its lines: their unchanged compactions are taken from
 * the last audit), a fourth after the next hour's (the same sessions grown by
 * a fiftieth more: a growth of turns is read from where the last read ended),
 * and those grown sessions alone with no cache, which is what re-reading them
 * cost before. Peak memory is the CLI process's maximum resident set, read by
 * GNU time. No figure is asserted: the ratios are the result.
 *
 *   npm run bench:library [-- --sessions N --mb M --jobs J]
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generateLibrary } from "./generate-library.ts";

const ROOT = resolve(import.meta.dirname, "..");
const FIXTURES = process.env.SESSION_FIXTURES || resolve(ROOT, "../shared/fixtures");

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

function parseFloor(root: string, files: string[]): number {
  const started = performance.now();
  for (const path of files) {
    const text = readFileSync(join(root, path), "utf8");
    if (path.endsWith(".json")) {
      JSON.parse(text);
      continue;
    }
    for (let start = 0; start < text.length;) {
      let end = text.indexOf("\n", start);
      if (end === -1) end = text.length;
      if (end > start) JSON.parse(text.slice(start, end));
      start = end + 1;
    }
  }
  return performance.now() - started;
}

interface AuditRun {
  ms: number;
  /** User + system CPU of the process and its threads (GNU time); on a shared machine, what the run would take alone is about this ÷ cores. */
  cpuMs: number | null;
  peakMb: number | null;
  sessions: number;
  compactions: number;
  skipped: number;
  /** Compaction rows the run took from the cache's last audit of a changed session (its summary line says how many). */
  reused: number;
  /** Grown sessions read only from where their last read ended (core/library/resume.ts; the summary line says how many). */
  tails: number;
}

function auditProcess(root: string, cacheDir: string, jobs: number, extra: string[] = []): AuditRun {
  const time = existsSync("/usr/bin/time") ? ["/usr/bin/time", "-f", "%M %U %S"] : [];
  const command = [...time, process.execPath, join(ROOT, "bin/session-inspector.mjs"), "audit", root, "--json", "--jobs", String(jobs), ...extra];
  const started = performance.now();
  const result = spawnSync(command[0]!, command.slice(1), { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 30, env: { ...process.env, SESSION_INSPECTOR_CACHE_DIR: cacheDir } });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`audit <folder> failed: ${result.stderr}`);
  const rows = result.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { kind: string });
  const [peakKb, user, system] = time.length ? result.stderr.trim().split("\n").pop()!.split(" ").map(Number) : [];
  const reused = /(\d+) compactions of changed sessions taken from their last audit/.exec(result.stderr);
  const tails = /(\d+) grown sessions read only from where their last read ended/.exec(result.stderr);
  return {
    ms,
    cpuMs: user !== undefined && system !== undefined && Number.isFinite(user + system) ? (user + system) * 1000 : null,
    peakMb: peakKb !== undefined && Number.isFinite(peakKb) ? peakKb / 1024 : null,
    sessions: rows.filter((row) => row.kind === "session").length,
    compactions: rows.filter((row) => row.kind === "compaction").length,
    skipped: rows.filter((row) => row.kind === "skipped").length,
    reused: reused ? Number(reused[1]) : 0,
    tails: tails ? Number(tails[1]) : 0,
  };
}

const sessions = flag("sessions", 1000);
const minBytes = flag("mb", 1000) * 1e6;
const jobs = flag("jobs", 2);
const work = mkdtempSync(join(tmpdir(), "si-library-bench-"));
try {
  const library = join(work, "library");
  const generated = generateLibrary(FIXTURES, library, { sessions, minBytes });
  // The floor first reads the files cold from the page cache's point of view only once; take the better of two.
  const floor = Math.min(parseFloor(library, generated.files), parseFloor(library, generated.files));
  const cache = join(work, "cache");
  // The CLI's bundle is built once per version of the sources (bin/bundle.mjs), not per run: build it
  // before timing, as any earlier command would have, so the first run times the indexing.
  spawnSync(process.execPath, [join(ROOT, "bin/session-inspector.mjs"), "--help"], { cwd: ROOT, env: { ...process.env, SESSION_INSPECTOR_CACHE_DIR: cache } });
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(" ");
  const loadBefore = load();
  const first = auditProcess(library, cache, jobs);
  const second = auditProcess(library, cache, jobs);
  // A day's work: one session in ten of those cut short grows by a tenth of its session's lines.
  const grownFiles = generated.grow(10, 0.1);
  const grown = auditProcess(library, cache, jobs);
  // The next hour's work on the same sessions: a fiftieth of their lines more, mostly turns (few compactions).
  generated.grow(10, 0.12);
  const grownAgain = auditProcess(library, cache, jobs);
  // What those sessions cost read whole, each audit made again (the library before rows were taken from the last audit).
  const alone = join(work, "grown-alone");
  for (const path of grownFiles) {
    mkdirSync(join(alone, path, ".."), { recursive: true });
    copyFileSync(join(library, path), join(alone, path));
  }
  const grownWhole = auditProcess(alone, join(work, "no-cache"), jobs, ["--no-cache"]);
  const ratio = (ms: number) => `${(ms / floor).toFixed(2)}×`;
  console.log(
    `library: ${generated.sessions} sessions, ${(generated.bytes / 1e6).toFixed(0)} MB; ${first.sessions} sessions indexed, ${first.compactions} recorded compactions, ${first.skipped} skipped; --jobs ${jobs}\n`,
  );
  const cpu = (run: AuditRun) => (run.cpuMs === null ? "–" : `${run.cpuMs.toFixed(0)} (${ratio(run.cpuMs)})`);
  console.log("| run | ms | ÷ parse floor | CPU ms of the process (÷ floor) | peak MB |");
  console.log("|---|---|---|---|---|");
  console.log(`| parse floor (one thread: read + JSON.parse of every line) | ${floor.toFixed(0)} | 1.00× | – | – |`);
  console.log(`| audit <folder>, first run (whole process) | ${first.ms.toFixed(0)} | ${ratio(first.ms)} | ${cpu(first)} | ${first.peakMb?.toFixed(0) ?? "–"} |`);
  console.log(`| audit <folder>, unchanged folder (cache) | ${second.ms.toFixed(0)} | ${ratio(second.ms)} | ${cpu(second)} | ${second.peakMb?.toFixed(0) ?? "–"} |`);
  console.log(
    `| audit <folder>, ${grownFiles.length} sessions grown by a tenth (cache; ${grown.reused} compactions taken from their last audit, ${grown.tails} sessions read from where they ended) | ${grown.ms.toFixed(0)} | ${ratio(grown.ms)} | ${cpu(grown)} | ${grown.peakMb?.toFixed(0) ?? "–"} |`,
  );
  console.log(
    `| audit <folder>, the same ${grownFiles.length} grown by a fiftieth more (cache; ${grownAgain.reused} compactions taken, ${grownAgain.tails} sessions read from where they ended) | ${grownAgain.ms.toFixed(0)} | ${ratio(grownAgain.ms)} | ${cpu(grownAgain)} | ${grownAgain.peakMb?.toFixed(0) ?? "–"} |`,
  );
  console.log(
    `| the ${grownFiles.length} grown sessions alone, every audit made again (--no-cache) | ${grownWhole.ms.toFixed(0)} | ${ratio(grownWhole.ms)} | ${cpu(grownWhole)} | ${grownWhole.peakMb?.toFixed(0) ?? "–"} |`,
  );
  console.log(`\nload average (1, 5, 15 min) before the first run: ${loadBefore}; after the second: ${load()}; ${cpus().length} cores`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
