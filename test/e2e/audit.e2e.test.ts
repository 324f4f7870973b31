/**
 * The agent's own compactions in Chromium, on real Claude Code sessions: the
 * file opens on the audit of its last compaction, the timeline shows each
 * one, clicking one shows before/after with dividers in the original and
 * dropped rows dimmed, "show in the other pane" lands on the right message.
 * (Opening on the last compaction by itself is not on yet: see the report.)
 * Screenshots light/dark at 1440 and 1024 in test-results/screenshots/.
 */
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeWithFixtures, fixturePath } from "../helpers/fixtures.ts";
import { SCREENSHOTS, foreignRequests, openApp, startHarness, type Harness, type OpenedPage } from "./harness.ts";

const TWO = fixturePath("claude/entireio__cli__f9-f6f611b469.jsonl");
const ONE = fixturePath("claude/entireio__cli__d0-161e0df1cb.jsonl");

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

/** Scrolls a virtualized pane down until `selector` is rendered in it; false at the bottom without it. */
async function scrollUntil(pane: ReturnType<OpenedPage["page"]["getByTestId"]>, selector: string): Promise<boolean> {
  for (let i = 0; i < 400; i++) {
    if ((await pane.locator(selector).count()) > 0) return true;
    const moved = await pane.locator(".pane-list").evaluate((list) => {
      const before = list.scrollTop;
      list.scrollTop += list.clientHeight * 0.8;
      return list.scrollTop !== before;
    });
    await pane.page().waitForTimeout(60);
    if (!moved) return (await pane.locator(selector).count()) > 0;
  }
  return false;
}

/** The audit panel folds to its one line by default; this opens its details (the facts, the messages, the summary). */
async function openAuditDetails(page: OpenedPage["page"]): Promise<void> {
  const panel = page.getByTestId("dropped-panel");
  if (!(await panel.evaluate((e) => (e as HTMLDetailsElement).open))) await panel.locator("summary").click();
}

async function loadFile(opened: OpenedPage, path: string): Promise<void> {
  await opened.page.getByTestId("file-input").setInputFiles(path);
  await opened.page.waitForFunction((name) => document.querySelector(".session-name")?.textContent?.includes(name), path.split("/").pop()!, { timeout: 30_000 });
  await opened.page.getByTestId("load-progress").waitFor({ state: "detached", timeout: 30_000 });
}

describeWithFixtures("recorded compactions in the app", () => {
  it("opens on the last compaction, audits #1 on click, marks dividers and dropped rows, shows a row in the other pane", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    await loadFile(opened, TWO);
    const timeline = page.getByTestId("compaction-timeline");
    // One mark per compaction the file records (a microcompact, then a compact).
    await timeline.locator(".timeline-mark").nth(1).waitFor({ timeout: 30_000 });
    expect(await timeline.locator(".timeline-mark").count()).toBe(2);
    expect(await timeline.textContent()).toContain("2 recorded compactions");
    // A file that records compactions opens on the audit of the last one, straight from the load.
    await page.locator(".pane-title h2", { hasText: "Before compaction #2" }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole("button", { name: "Recorded compactions" }).getAttribute("aria-pressed")).toBe("true");
    await page.locator(".pane-title h2", { hasText: "After compaction #2" }).waitFor();
    await timeline.locator('.timeline-mark[data-compaction-index="2"][aria-pressed="true"]').waitFor();
    const original = page.getByTestId("original-pane");
    const active = page.getByTestId("active-pane");
    const dropped = original.locator('[data-testid=message-row][data-dropped="true"]');
    await dropped.first().waitFor();
    expect(await dropped.first().textContent()).toContain("dropped at #2");
    // Folded, its line names the score and what fell out; opened, the columns.
    await expect.poll(() => page.getByTestId("dropped-digest").textContent(), { timeout: 60_000 }).toMatch(/\d+\/\d+ facts present in context after/);
    await openAuditDetails(page);
    await page.getByTestId("dropped-panel").locator("h3", { hasText: "Facts that fell out" }).waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(SCREENSHOTS, "audit-1440-light.png") });

    // "Show in the other pane" on a dropped row lands on the summary that replaced it.
    await dropped.first().getByTestId("show-in-other-pane").click();
    const selectedActive = active.locator('[data-testid=message-row][aria-selected="true"]');
    await selectedActive.waitFor();
    expect(await selectedActive.textContent()).toContain("This session is being continued from a previous conversation");
    // With the selected message open under the panes, the dropped panel folds to its summary line; a click opens it again.
    const droppedOpen = () => page.getByTestId("dropped-panel").evaluate((e) => (e as HTMLDetailsElement).open);
    await expect.poll(droppedOpen).toBe(false);
    await page.getByTestId("dropped-panel").locator("summary").click();
    await expect.poll(droppedOpen).toBe(true);

    // A kept row lands on the same message.
    const kept = original.locator('[data-testid=message-row]:not([data-dropped="true"])').first();
    if ((await kept.count()) > 0) {
      const id = await kept.getAttribute("data-message-id");
      await kept.getByTestId("show-in-other-pane").click();
      await active.locator(`[data-testid=message-row][aria-selected="true"][data-message-id="${id}"]`).waitFor();
    }

    // Clicking #1 audits the microcompact: it cleared old tool outputs, so nothing left the context whole.
    await timeline.locator('.timeline-mark[data-compaction-index="1"]').click();
    await page.locator(".pane-title h2", { hasText: "Before compaction #1" }).waitFor({ timeout: 30_000 });
    await timeline.locator('.timeline-mark[data-compaction-index="1"][aria-pressed="true"]').waitFor();
    await original.getByTestId("message-row").first().waitFor();
    expect(await original.locator('[data-testid=message-row][data-dropped="true"]').count()).toBe(0);
    await openAuditDetails(page);
    await page.getByTestId("dropped-panel").locator("h3", { hasText: "Tool outputs dropped" }).waitFor({ timeout: 60_000 });

    // The strategy comparison is one click away, and its original branch has a divider at each compaction.
    await page.getByRole("button", { name: "Strategies" }).click();
    await page.locator(".pane-title h2", { hasText: "Original branch" }).waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "Recorded compactions" }).waitFor();
    expect(await page.getByTestId("compaction-timeline").locator(".timeline-mark").count()).toBe(2);
    await original.getByTestId("message-row").first().waitFor();
    // Microcompact #1 (line 371) and compact #2 (line 372) were recorded back to back: both dividers stand above the next message.
    expect(await scrollUntil(original, '[data-testid=compaction-divider][data-compaction-index="2"]')).toBe(true);
    const first = original.locator('[data-testid=compaction-divider][data-compaction-index="1"]');
    expect(await first.textContent()).toMatch(/compaction #1.*microcompact.*auto.*the file's tokens 78,208 → 39,673/);
    expect(await original.locator('[data-testid=compaction-divider][data-compaction-index="2"]').textContent()).toMatch(
      /compaction #2.*compact \(summary\).*auto.*the file's tokens 176,700 → not stated/,
    );
    // Rows that left the agent's context (at #2) are dimmed in the recorded strategy's original branch too.
    await page.screenshot({ path: join(SCREENSHOTS, "audit-strategies-1440-light.png") });
    await page.getByTestId("strategy-select").selectOption("recorded");
    await page.locator(".pane-title h2", { hasText: "Active context (recorded)" }).waitFor({ timeout: 30_000 });
    await original.locator(".pane-list").evaluate((list) => (list.scrollTop = 0));
    await original.locator('[data-testid=message-row][data-dropped="true"]').first().waitFor();
    expect(await original.locator('[data-testid=message-row][data-dropped="true"]').first().textContent()).toContain("dropped at #2");

    expect(foreignRequests(opened.requests, harness.origin)).toEqual([]);
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  }, 180_000);

  it("the presenter tells the compactions as a story, then the strategy comparison", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    await loadFile(opened, ONE);
    await page.getByTestId("compaction-timeline").locator(".timeline-mark").first().click();
    await page.locator(".pane-title h2", { hasText: "After compaction #1" }).waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "Present" }).click();
    const story = page.getByTestId("presenter-story");
    await story.locator("h2", { hasText: "Compaction 1 of 1: before" }).waitFor();
    expect(await story.textContent()).toMatch(/the agent was sending [\d,]+ messages: [\d,]+ tokens by the file's own count/);
    await page.keyboard.press("ArrowRight");
    await story.locator("h2", { hasText: "Compaction 1 of 1: after" }).waitFor();
    await page.keyboard.press("ArrowRight");
    await story.locator("h2", { hasText: "what it lost" }).waitFor();
    await story.getByText(/facts were still in the context right after/).waitFor({ timeout: 60_000 });
    // Plain words: no hashes or ids on the story.
    expect(await story.textContent()).not.toMatch(/[0-9a-f]{12}/);
    await page.screenshot({ path: join(SCREENSHOTS, "audit-presenter-1440-light.png") });
    await page.keyboard.press("ArrowRight");
    await story.locator("h2", { hasText: "And with a different compaction?" }).waitFor();
    await page.locator(".pane-title h2", { hasText: "Original branch" }).waitFor({ timeout: 30_000 });
    await page.getByTestId("presenter-score").waitFor();
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  }, 120_000);

  for (const [width, scheme] of [
    [1440, "dark"],
    [1024, "light"],
    [1024, "dark"],
  ] as const) {
    it(`a single compaction at ${width} px, ${scheme}`, async () => {
      const opened = await openApp(harness, "", { width, height: 860 });
      await opened.page.emulateMedia({ colorScheme: scheme });
      await loadFile(opened, ONE);
      const timeline = opened.page.getByTestId("compaction-timeline");
      await timeline.locator(".timeline-mark").first().waitFor({ timeout: 30_000 });
      expect(await timeline.locator(".timeline-mark").count()).toBe(1);
      await timeline.locator(".timeline-mark").first().click();
      await opened.page.locator(".pane-title h2", { hasText: "After compaction #1" }).waitFor({ timeout: 30_000 });
      await openAuditDetails(opened.page);
      await opened.page.getByTestId("dropped-panel").locator("h3").first().waitFor({ timeout: 60_000 });
      await opened.page.screenshot({ path: join(SCREENSHOTS, `audit-${width}-${scheme}.png`) });
      expect(opened.errors).toEqual([]);
      await opened.context.close();
    }, 120_000);
  }
});
