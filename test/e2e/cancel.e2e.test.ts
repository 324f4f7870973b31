/**
 * Cancel after the preview, and loads and cancels in quick succession, in
 * the built app: the screen always ends showing one session whole (header,
 * stats, both panes, the selection), no row stays "Loading…", and clicking a
 * row opens that row's message.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { generatePiSession } from "../../bench/generate.ts";
import { fixturePath, itWithFixtures } from "../helpers/fixtures.ts";
import { openApp, startHarness, type Harness } from "./harness.ts";

let harness: Harness;
let dir: string;
let big: string;

beforeAll(async () => {
  harness = await startHarness();
  dir = mkdtempSync(join(tmpdir(), "si-cancel-"));
  // Large enough that its compaction is still running when the preview is on screen.
  big = join(dir, "generated-60mb.jsonl");
  writeFileSync(big, generatePiSession(60e6));
});

afterAll(async () => {
  await harness?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What the screen shows, read from the page. */
async function screenOf(page: Page) {
  return page.evaluate(() => {
    const text = (selector: string) => document.querySelector(selector)?.textContent ?? null;
    const rowIds = (pane: string) =>
      [...document.querySelectorAll(`[data-testid=${pane}-pane] [data-testid=message-row]`)].slice(0, 5).map((row) => row.getAttribute("data-message-id"));
    return {
      header: text(".session-name"),
      originalChars: text("[data-testid=stats-original-chars]"),
      activeChars: text("[data-testid=stats-active-chars]"),
      payloads: text("[data-testid=stats-payloads]"),
      original: rowIds("original"),
      active: rowIds("active"),
      selected: [...document.querySelectorAll("[data-testid=message-row][aria-selected=true]")].map((row) => row.getAttribute("data-message-id")),
    };
  });
}

/** Nothing still loading, no row stuck on "Loading row N…", and a clicked row opens its own message. */
async function expectConsistent(page: Page) {
  await page.getByTestId("load-progress").waitFor({ state: "detached", timeout: 60_000 });
  await page.waitForFunction(() => document.querySelectorAll(".row-loading, .row-pending").length === 0, undefined, { timeout: 15_000, polling: 50 });
  for (const pane of ["active", "original"] as const) {
    const row = page.locator(`[data-testid=${pane}-pane] [data-testid=message-row]`).nth(1);
    const id = await row.getAttribute("data-message-id");
    await row.click();
    await page.waitForFunction((id) => [...document.querySelectorAll(".detail-column h3 .mono")].some((el) => el.textContent === id), id, { timeout: 10_000, polling: 50 });
  }
}

it("cancel after the preview puts back the header, the stats, both panes and the selection", async () => {
  const opened = await openApp(harness);
  const { page } = opened;
  await page.locator("[data-testid=active-pane] [data-testid=message-row]").nth(2).click();
  await page.waitForFunction(() => document.querySelector("[data-testid=message-row][aria-selected=true]") !== null);
  const before = await screenOf(page);
  expect(before.selected.length).toBeGreaterThan(0);
  await page.getByTestId("file-input").setInputFiles(big);
  // The preview: the new file's original branch is on screen while its compaction runs.
  await page.waitForFunction(() => document.querySelector("[data-testid=original-pane] [data-message-id='00000000']") !== null, undefined, { timeout: 60_000, polling: 20 });
  await page.getByTestId("load-progress").getByRole("button", { name: "Cancel" }).click();
  await page.getByTestId("load-progress").waitFor({ state: "detached" });
  await page.waitForFunction((ids) => document.querySelector(`[data-testid=original-pane] [data-message-id='${ids[0]}']`) !== null, before.original);
  await page.waitForFunction(() => document.querySelectorAll(".row-loading, .row-pending").length === 0, undefined, { timeout: 15_000, polling: 50 });
  expect(await screenOf(page)).toEqual(before);
  await expectConsistent(page);
  expect(opened.errors).toEqual([]);
  await opened.context.close();
});

itWithFixtures("loads and cancels in quick succession end on one consistent session", async () => {
  const opened = await openApp(harness);
  const { page } = opened;
  await page.getByTestId("message-row").first().waitFor();
  const small = fixturePath("composed/pi-v3-tree.jsonl");
  const cancel = () =>
    page
      .getByTestId("load-progress")
      .getByRole("button", { name: "Cancel" })
      .click({ timeout: 2_000 })
      .catch(() => undefined);
  await page.getByTestId("file-input").setInputFiles(big);
  await cancel();
  await page.getByTestId("file-input").setInputFiles(small);
  await page.getByTestId("file-input").setInputFiles(big);
  await page.waitForTimeout(50);
  await cancel();
  await page.getByTestId("file-input").setInputFiles(big);
  await page.getByTestId("file-input").setInputFiles(small);
  await expectConsistent(page);
  expect(await page.locator(".session-name").textContent()).toContain("pi-v3-tree.jsonl");
  // Whatever was cancelled never lands later.
  await page.waitForTimeout(3_000);
  expect(await page.locator(".session-name").textContent()).toContain("pi-v3-tree.jsonl");
  expect(opened.errors).toEqual([]);
  await opened.context.close();
});
