/**
 * Follow in Chromium (issue #29): a session opened from the file input, then
 * followed through a file handle the test provides (the Origin Private File
 * System stands in for the user's disk: the picker is answered with its
 * handle), grown by the test the way an agent writes (a line cut in the
 * middle, then its end, then a compaction and what follows it). The panes
 * grow, the new compaction's notice names it with the file's figures, one
 * click audits it, and the longest main-thread task while following is
 * measured and reported. Composed data only (the project's own demo).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.ts";
import { SCREENSHOTS, foreignRequests, openApp, startHarness, type Harness } from "./harness.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const lines = readFileSync(join(ROOT, "public/demos/pi-ledger-fix.jsonl"), "utf8").split("\n").filter(Boolean);
const compactionLine = lines.findIndex((line) => line.includes('"type":"compaction"'));
const before = lines.slice(0, compactionLine).join("\n") + "\n";
const after = lines.slice(compactionLine).join("\n") + "\n";

it("follows a file as it grows: new rows, the compaction's notice, its audit, and a main thread that stays free", async () => {
  const { page, requests, errors } = await openApp(harness);
  await page.getByTestId("file-input").setInputFiles({ name: "ledger-live.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(before) });
  // The demo on screen first is replaced by the file.
  await page.waitForFunction(() => document.querySelector(".session-name")?.textContent?.includes("ledger-live.jsonl"), null, { timeout: 30_000 });
  await page.getByTestId("load-progress").waitFor({ state: "detached", timeout: 30_000 });
  await page.locator("[data-testid=active-pane] [data-testid=message-row]").first().waitFor({ timeout: 30_000 });
  const originalCount = async () =>
    Number(((await page.locator("[data-testid=original-pane] .pane-title").textContent()) ?? "").match(/([\d,]+) messages?/)?.[1]?.replace(/,/g, ""));
  const countBefore = await originalCount();
  const textOf = (id: string) => () => page.getByTestId(id).first().textContent({ timeout: 30_000 });

  // The user's disk, as the picker would give it: a file in the origin's private file system.
  await page.evaluate(async (text) => {
    const root = await navigator.storage.getDirectory();
    const handle = await root.getFileHandle("ledger-live.jsonl", { create: true });
    const writable = await handle.createWritable();
    await writable.write(text);
    await writable.close();
    const w = window as unknown as { showOpenFilePicker: () => Promise<FileSystemFileHandle[]>; liveHandle: FileSystemFileHandle };
    w.liveHandle = handle;
    w.showOpenFilePicker = async () => [handle];
  }, before);

  await expect.poll(textOf("follow-start")).toBe("Follow…");
  await page.getByTestId("follow-start").click();
  await expect.poll(textOf("follow-state"), { timeout: 30_000 }).toContain("following");

  await page.evaluate(() => {
    const w = window as unknown as { followTasks: number[] };
    w.followTasks = [];
    new PerformanceObserver((list) => list.getEntries().forEach((entry) => w.followTasks.push(entry.duration))).observe({ type: "longtask", buffered: false });
  });
  /** The agent's write: bytes added at the end of the file. */
  const append = (text: string) =>
    page.evaluate(async (added) => {
      const handle = (window as unknown as { liveHandle: FileSystemFileHandle }).liveHandle;
      const size = (await handle.getFile()).size;
      const writable = await handle.createWritable({ keepExistingData: true });
      await writable.seek(size);
      await writable.write(added);
      await writable.close();
    }, text);

  // A line cut in the middle waits for its end; nothing is recorded yet.
  const firstHalf = after.slice(0, 60);
  await append(firstHalf);
  await page.waitForTimeout(2500);
  expect(await page.getByTestId("follow-notice").count()).toBe(0);
  expect(await originalCount()).toBe(countBefore);

  // The reader is at the end of the original pane: the new rows come into view as they arrive.
  // Twice, a moment apart: rows measured after the first scroll can move the end.
  for (let i = 0; i < 2; i++) {
    await page.evaluate(() => {
      const list = document.querySelector("[data-testid=original-pane] .pane-list") as HTMLElement;
      list.scrollTop = list.scrollHeight;
      list.dispatchEvent(new Event("scroll", { bubbles: true }));
    });
    await page.waitForTimeout(300);
  }

  const lastRowShown = () =>
    page.evaluate(() => {
      const rows = [...document.querySelectorAll("[data-testid=original-pane] [data-row]")].map((row) => Number((row as HTMLElement).dataset.row));
      return Math.max(...rows);
    });
  const started = Date.now();
  await append(after.slice(60));
  const notice = page.getByTestId("follow-notice");
  await expect.poll(textOf("follow-notice"), { timeout: 30_000 }).toContain("Compaction #1 recorded");
  const noticeMs = Date.now() - started;
  expect(await notice.textContent()).toMatch(/at line 42: 13,800 tokens before, the file's own figure \(it records none after\); 10 messages left the context/);
  await expect.poll(originalCount, { timeout: 10_000 }).toBeGreaterThan(countBefore);
  await expect.poll(async () => (await lastRowShown()) === (await originalCount()) - 1, { timeout: 20_000 }).toBe(true);
  await expect.poll(textOf("follow-state"), { timeout: 30_000 }).toContain("following");
  const followTasks = await page.evaluate(() => (window as unknown as { followTasks: number[] }).followTasks);
  const longest = followTasks.length ? Math.max(...followTasks) : 0;
  console.log(
    `follow: compaction noticed ${noticeMs} ms after it was written · ${followTasks.length} main-thread tasks over 50 ms while following, longest ${longest.toFixed(0)} ms`,
  );
  await page.screenshot({ path: join(SCREENSHOTS, "follow-notice-1440.png") });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: join(SCREENSHOTS, "follow-notice-1024-dark.png") });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });

  await page.getByTestId("follow-audit").click();
  await page.locator(".pane-title h2", { hasText: /^Before compaction #1/ }).waitFor({ timeout: 30_000 });
  // Still following while the audit is on screen; pause and resume keep the session.
  await page.getByTestId("follow-pause").click();
  await expect.poll(textOf("follow-state"), { timeout: 30_000 }).toContain("paused");
  await page.getByTestId("follow-resume").click();
  await expect.poll(textOf("follow-state"), { timeout: 30_000 }).toContain("following");
  // Esc closes the topmost overlay: the share panel here, not the session's selection.
  await page.getByTestId("share-toggle").click();
  await page.getByTestId("share-panel").waitFor();
  await page.locator("body").press("Escape");
  await page.getByTestId("share-panel").waitFor({ state: "detached", timeout: 5_000 });

  // Find counts as the user types; Enter goes to the first match.
  const find = page.getByLabel("Find in session");
  await find.pressSequentially("ledger", { delay: 30 });
  await expect.poll(textOf("find-counts"), { timeout: 10_000 }).toMatch(/^\d+ match(es)? · original \d+ · active \d+ · Enter to go$/);
  await find.press("Enter");
  await expect.poll(textOf("find-counts"), { timeout: 10_000 }).toMatch(/^1 \/ \d+ in the (active context|original only)/);
  await find.press("Escape");
  await page.getByTestId("follow-stop").click();
  await expect.poll(textOf("follow-start")).toBe("Follow");

  expect(foreignRequests(requests, harness.origin)).toEqual([]);
  expect(errors).toEqual([]);
}, 120_000);
