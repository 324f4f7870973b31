/**
 * The library in Chromium at the benchmark's scale (issue #19): the built app
 * (run `npm run build` first) opens a generated library of ≥ 1,000 sessions
 * and ≥ 1 GB through the directory input, as a user would pick it. Measured
 * through the page: the time to the first rows of the table, to the first
 * audited row, and the main-thread tasks over 50 ms (the Long Tasks API)
 * while it indexes; then, past `--seconds`, how far indexing got (the whole
 * folder takes minutes in a browser's workers, so it is sampled, not
 * awaited, unless --seconds is large enough). No figure is asserted.
 *
 *   npm run bench:library:browser [-- --sessions N --mb M --seconds S --folder PATH]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { preview } from "vite";
import { generateLibrary } from "./generate-library.ts";

const ROOT = resolve(import.meta.dirname, "..");
const FIXTURES = process.env.SESSION_FIXTURES || resolve(ROOT, "../shared/fixtures");

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

const seconds = Number(flag("seconds") ?? 60);
const given = flag("folder");
const work = given ? null : mkdtempSync(join(tmpdir(), "si-library-browser-"));
const folder = given ?? join(work!, "library");
if (!given) {
  const generated = generateLibrary(FIXTURES, folder, { sessions: Number(flag("sessions") ?? 1000), minBytes: Number(flag("mb") ?? 1000) * 1e6 });
  console.log(`library: ${generated.sessions} sessions, ${(generated.bytes / 1e6).toFixed(0)} MB`);
}

const server = await preview({ root: ROOT, logLevel: "silent", preview: { host: "127.0.0.1", port: 0 } });
const address = server.httpServer.address();
const port = typeof address === "object" && address ? address.port : 0;
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(() => {
    const w = window as unknown as { __longTasks: { start: number; duration: number }[]; __changeAt: number | null };
    w.__longTasks = [];
    w.__changeAt = null;
    new PerformanceObserver((list) => list.getEntries().forEach((entry) => w.__longTasks.push({ start: entry.startTime, duration: entry.duration }))).observe({
      type: "longtask",
      buffered: true,
    });
    // When the page is told of the pick: what the main thread did before it is the browser's own work.
    document.addEventListener("change", () => (w.__changeAt ??= performance.now()), true);
  });
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.getByTestId("message-row").first().waitFor();
  await page.getByTestId("load-progress").waitFor({ state: "detached", timeout: 60_000 });
  await page.evaluate(() => ((window as unknown as { __longTasks: unknown[] }).__longTasks.length = 0));
  const load = loadavg()[0]!.toFixed(2);

  // setInputFiles returns once the input has its files: the app's clock starts there, as after a user's pick.
  await page.getByTestId("folder-input").setInputFiles(folder);
  const chosen = Date.now();
  await page.getByTestId("library-row").first().waitFor({ timeout: 120_000 });
  const firstRows = Date.now() - chosen;
  await page.locator("[data-testid=library-row]:not([data-pending])").first().waitFor({ timeout: 300_000 });
  const firstAudited = Date.now() - chosen;
  const done = page.locator("[data-testid=library-progress]", { hasText: "· done" });
  await done.waitFor({ timeout: seconds * 1000 }).catch(() => undefined);
  const elapsed = Date.now() - chosen;
  const progress = await page.getByTestId("library-progress").textContent();
  const { longTasks, changeAt } = await page.evaluate(() => {
    const w = window as unknown as { __longTasks: { start: number; duration: number }[]; __changeAt: number | null };
    return { longTasks: w.__longTasks, changeAt: w.__changeAt ?? 0 };
  });
  // Chromium builds the input's list of files (1,571 here) on the main thread before it fires "change": a task the page cannot split.
  const browserOwn = longTasks.filter((task) => task.start < changeAt);
  const app = longTasks.filter((task) => task.start >= changeAt).map((task) => task.duration);
  const heapMb = await page.evaluate(() => ((performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0) / 1e6);
  console.log(`first rows of the table: ${firstRows} ms after the folder was chosen; first audited row: ${firstAudited} ms`);
  console.log(
    `main-thread tasks over 50 ms in the first ${(elapsed / 1000).toFixed(0)} s after the page was told of the pick: ${app.length}, longest ${Math.round(Math.max(0, ...app))} ms; ` +
      `before it (the browser building the input's file list): ${browserOwn.map((task) => `${Math.round(task.duration)} ms`).join(", ") || "none"}`,
  );
  console.log(`progress after ${(elapsed / 1000).toFixed(0)} s: ${progress}; main-thread JS heap ${heapMb.toFixed(0)} MB; load average before: ${load}`);
} finally {
  await browser.close();
  server.httpServer.close();
  if (work) rmSync(work, { recursive: true, force: true });
}
