/**
 * Scale: a generated 100 MB Pi session through the file input. Measures the
 * time to the first rows, the longest main-thread task while scrolling 10,000
 * rows (PerformanceObserver "longtask"), and the main thread's JS heap
 * (Chrome DevTools Protocol Performance.getMetrics). The figures are printed
 * as well as asserted, for the README.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { generatePiSession } from "../../bench/generate.ts";
import { fixturePath, itWithFixtures } from "../helpers/fixtures.ts";
import { SCREENSHOTS, openApp, startHarness, type Harness } from "./harness.ts";

const SIZE_MB = Number(process.env.SCALE_MB ?? 100);
let harness: Harness;
let dir: string;
let file: string;

beforeAll(async () => {
  harness = await startHarness();
  dir = mkdtempSync(join(tmpdir(), "si-scale-"));
  file = join(dir, `generated-${SIZE_MB}mb.jsonl`);
  writeFileSync(file, generatePiSession(SIZE_MB * 1e6));
});

afterAll(async () => {
  await harness?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// A timing measurement on a shared 2-core machine: another process can steal a core for a moment,
// so a miss is measured again (up to twice) before it counts as a failure.
it(`a ${SIZE_MB} MB session: first rows, scrolling 10,000 rows and the main heap under 150 MB (timings reported)`, { retry: 2 }, async () => {
  const opened = await openApp(harness);
  const { page } = opened;
  await page.getByTestId("message-row").first().waitFor();
  const cdp = await opened.context.newCDPSession(page);
  await cdp.send("Performance.enable");

  // Main-thread tasks over 50 ms while the session loads (reported; the scroll below is what is asserted).
  await page.evaluate(() => {
    const w = window as unknown as { loadTasks: number[] };
    w.loadTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.loadTasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: false });
  });
  const started = Date.now();
  await page.getByTestId("file-input").setInputFiles(file);
  // First rows: the new session's first message in the original pane (shown while the compaction runs).
  await page.waitForFunction(
    (name) => document.querySelector(".session-name")?.textContent?.includes(name) && document.querySelector("[data-testid=original-pane] [data-message-id='00000000']"),
    file.split("/").pop()!,
    { timeout: 60_000, polling: 50 },
  );
  const firstRowsMs = Date.now() - started;
  await page.locator("[data-testid=active-pane] [data-testid=message-row]").first().waitFor({ timeout: 60_000 });
  const compactedMs = Date.now() - started;
  await page.getByTestId("load-progress").waitFor({ state: "detached", timeout: 60_000 });
  const loadTasks = await page.evaluate(() => (window as unknown as { loadTasks: number[] }).loadTasks);

  // Watch main-thread tasks while scrolling the active pane through 10,000 rows.
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: false });
  });
  const scrolled = await page.evaluate(async () => {
    const list = document.querySelector("[data-testid=active-pane] .pane-list") as HTMLElement;
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    let lastRow = 0;
    for (let step = 0; step < 3000 && lastRow < 10_000; step++) {
      list.scrollTop += 1500;
      await frame();
      const rows = list.querySelectorAll("[data-row]");
      const last = rows[rows.length - 1] as HTMLElement | undefined;
      if (last) lastRow = Number(last.dataset.row);
    }
    // Let the page fetches settle, then check rows are real (not placeholders).
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { lastRow, rendered: list.querySelectorAll("[data-testid=message-row]").length };
  });
  const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
  const { metrics } = await cdp.send("Performance.getMetrics");
  const heapMb = (metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0) / 1024 / 1024;
  await page.screenshot({ path: join(SCREENSHOTS, "07-scale-100mb.png") });
  const longest = longTasks.length ? Math.max(...longTasks) : 0;
  console.log(
    `scale: ${SIZE_MB} MB · while loading ${loadTasks.length} main-thread tasks over 50 ms${loadTasks.length ? ` (${loadTasks.map((t) => t.toFixed(0)).join(", ")} ms)` : ""}`,
  );
  console.log(
    `scale: ${SIZE_MB} MB · first rows ${firstRowsMs} ms · active context ${compactedMs} ms · scrolled to row ${scrolled.lastRow} · ${longTasks.length} long tasks, longest ${longest.toFixed(0)} ms · main JS heap ${heapMb.toFixed(1)} MB`,
  );

  // Strategy switches: away (a new compaction in the worker), back (the worker's cached view), away again (cached too).
  const select = page.getByTestId("strategy-select");
  const first = await select.inputValue();
  const other = await select.evaluate((e, current) => [...(e as HTMLSelectElement).options].map((o) => o.value).find((v) => v !== current)!, first);
  const switchTo = async (strategy: string): Promise<number> => {
    const t0 = Date.now();
    await select.selectOption(strategy);
    await page.waitForFunction(
      (name) =>
        document.querySelector("[data-testid=active-pane] h2")?.textContent?.includes(`(${name})`) && document.querySelector("[data-testid=active-pane] [data-testid=message-row]"),
      strategy,
      { timeout: 60_000, polling: 20 },
    );
    return Date.now() - t0;
  };
  const away = await switchTo(other);
  const back = await switchTo(first);
  const againAway = await switchTo(other);
  console.log(`scale: ${SIZE_MB} MB · strategy ${first} → ${other} ${away} ms · back to ${first} ${back} ms (cached) · → ${other} again ${againAway} ms (cached)`);

  expect(scrolled.lastRow).toBeGreaterThanOrEqual(10_000);
  expect(scrolled.rendered).toBeGreaterThan(0);
  // Timings are measured and printed above (and kept in docs/performance.md), not asserted
  // tightly: on a shared 2-core machine they say more about the neighbours than the app.
  // These bounds only catch a hang or a freeze.
  expect(firstRowsMs).toBeLessThan(30_000);
  expect(longest).toBeLessThanOrEqual(2_000);
  expect(heapMb).toBeLessThan(150);
  await opened.context.close();
});

it("a long load shows its progress and can be cancelled: the previous session stays on screen", async () => {
  const opened = await openApp(harness);
  const { page } = opened;
  await page.getByTestId("message-row").first().waitFor();
  const before = await page.locator(".session-name").textContent();
  await page.getByTestId("file-input").setInputFiles(file);
  const progress = page.getByTestId("load-progress");
  await progress.waitFor();
  expect(await progress.textContent()).toContain(file.split("/").pop()!);
  await progress.getByRole("button", { name: "Cancel" }).click();
  await progress.waitFor({ state: "detached" });
  expect(await page.locator(".session-name").textContent()).toBe(before);
  await page.getByTestId("message-row").first().waitFor();
  // The cancelled load never lands later.
  await page.waitForTimeout(8_000);
  expect(await page.locator(".session-name").textContent()).toBe(before);
  expect(opened.errors).toEqual([]);
  await opened.context.close();
});

itWithFixtures("a second file opened while a long load runs cancels the first: only the second lands", async () => {
  const opened = await openApp(harness);
  const { page } = opened;
  await page.getByTestId("message-row").first().waitFor();
  await page.getByTestId("file-input").setInputFiles(file);
  await page.getByTestId("load-progress").waitFor();
  const second = fixturePath("composed/pi-v3-tree.jsonl");
  await page.getByTestId("file-input").setInputFiles(second);
  await page.waitForFunction(() => document.querySelector(".session-name")?.textContent?.includes("pi-v3-tree.jsonl"), undefined, { timeout: 30_000 });
  await page.getByTestId("load-progress").waitFor({ state: "detached" });
  await page.locator("[data-testid=active-pane] [data-testid=message-row]").first().waitFor();
  // The first load was cancelled in the worker: it never replaces the second.
  await page.waitForTimeout(8_000);
  expect(await page.locator(".session-name").textContent()).toContain("pi-v3-tree.jsonl");
  expect(opened.errors).toEqual([]);
  await opened.context.close();
});
