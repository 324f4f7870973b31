/**
 * The audit's invariants on what the screen shows (#31), walking every recorded
 * compaction of three real sessions (Claude Code, Codex, Pi):
 * - no row of the after pane is badged dropped, and no row badged dropped in
 *   the before pane stands in the after pane (by id, nor by its text);
 * - "summary of what left" only in the after pane;
 * - the facts add up: the timeline chip's score is the panel's, and the
 *   panel's kept + fell out here + already gone before = asked.
 * The same invariants over every fixture's compactions, below the screen, are
 * in test/core/audit/.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { describeWithFixtures, fixturePath } from "../helpers/fixtures.ts";
import { startHarness, type Harness } from "./harness.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const SESSIONS = [
  "claude/entireio__cli__f9-f6f611b469.jsonl",
  "codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl",
  "pi/badlogic__pi-mono__before-compaction.jsonl",
];

interface ScreenRow {
  id: string;
  role: string;
  text: string;
  dropped: boolean;
  summaryBadge: boolean;
}

/** Every row of a pane, scrolling its virtual list from top to bottom and waiting for each screenful's content. */
async function allRows(page: Page, pane: "original-pane" | "active-pane"): Promise<ScreenRow[]> {
  return page.evaluate(async (testId) => {
    const list = document.querySelector<HTMLElement>(`[data-testid=${testId}] .pane-list`)!;
    const rows = new Map<string, { id: string; role: string; text: string; dropped: boolean; summaryBadge: boolean }>();
    const settle = async () => {
      for (let tries = 0; tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 40));
        if (!list.querySelector(".row-pending, .row-loading")) return;
      }
    };
    const collect = () => {
      for (const row of list.querySelectorAll<HTMLElement>("[data-testid=message-row]")) {
        rows.set(row.dataset.row!, {
          id: row.dataset.messageId ?? "",
          role: /\brole-(\S+)/.exec(row.className)?.[1] ?? "",
          text: (row.querySelector(".block-text")?.textContent ?? "").trim(),
          dropped: row.dataset.dropped === "true",
          summaryBadge: !!row.querySelector(".badge-summary"),
        });
      }
    };
    const atEnd = () => list.scrollTop + list.clientHeight >= list.scrollHeight - 2;
    for (let top = 0; ; top += Math.max(100, list.clientHeight * 0.5)) {
      list.scrollTop = top;
      await settle();
      collect();
      if (!atEnd()) continue;
      // Rows measured late can grow the list after the last step: the end is looked at again once it has settled.
      await new Promise((resolve) => setTimeout(resolve, 200));
      list.scrollTop = list.scrollHeight;
      await settle();
      collect();
      if (atEnd()) break;
    }
    list.scrollTop = 0;
    return [...rows.values()];
  }, pane);
}

describeWithFixtures("the audit's invariants on screen", () => {
  for (const path of SESSIONS) {
    it(`every recorded compaction of ${path.split("/")[0]}`, async () => {
      const context = await harness.browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`${harness.origin}/`);
      await page.getByTestId("file-input").setInputFiles(fixturePath(path));
      // The demo session opened first stays on screen (its timeline too) until the file has loaded: wait for the file's own.
      await page.waitForFunction((name) => document.querySelector(".session-name")?.textContent?.includes(name), path.split("/").pop()!, { timeout: 60_000 });
      await page.getByTestId("load-progress").waitFor({ state: "detached", timeout: 60_000 });
      await page.locator("[data-testid=compaction-timeline]:not([aria-busy])").waitFor({ timeout: 60_000 });
      const marks = page.getByTestId("compaction-timeline").locator(".timeline-mark");
      await marks.first().waitFor({ timeout: 60_000 });
      const count = await marks.count();
      expect(count).toBeGreaterThan(0);
      let droppedSeen = 0;
      for (let index = 1; index <= count; index++) {
        const mark = page.locator(`.timeline-mark[data-compaction-index="${index}"]`);
        await expect.poll(() => mark.isDisabled(), { timeout: 60_000 }).toBe(false);
        await mark.click();
        await page.locator(".pane-title h2", { hasText: `Before compaction #${index}` }).waitFor({ timeout: 60_000 });
        await page.locator(`.timeline-mark[data-compaction-index="${index}"][aria-pressed="true"]`).waitFor();
        await page.locator("[data-testid=active-pane] [data-testid=message-row]").first().waitFor({ timeout: 60_000 });
        const digest = page.getByTestId("dropped-digest");
        await expect.poll(() => digest.textContent(), { timeout: 60_000 }).toMatch(/facts present in context after|no fact/i);

        const where = `${path} #${index}`;
        // The walk must see every row the pane's title counts (a virtual list renders rows late: walked again, at most three times).
        const counted = async (pane: string) => Number(((await page.locator(`[data-testid=${pane}] .pane-title .dim`).textContent()) ?? "").replace(/[^\d]/g, ""));
        const walk = async (pane: "original-pane" | "active-pane") => {
          let rows = await allRows(page, pane);
          for (let tries = 1; tries < 3 && rows.length !== (await counted(pane)); tries++) rows = await allRows(page, pane);
          expect(rows.length, `${where}: rows walked in ${pane}`).toBe(await counted(pane));
          return rows;
        };
        const before = await walk("original-pane");
        const after = await walk("active-pane");
        droppedSeen += before.filter((row) => row.dropped).length;
        expect(
          after.filter((row) => row.dropped).map((row) => row.id),
          `${where}: after-pane rows badged dropped`,
        ).toEqual([]);
        expect(
          before.filter((row) => row.summaryBadge).map((row) => row.id),
          `${where}: summary badges in the before pane`,
        ).toEqual([]);
        const afterIds = new Set(after.map((row) => row.id));
        // What was written (not tool output: two reads of one file are two messages with one text), in texts
        // long enough not to repeat by chance ("continue"): a format that rewrites ids on compaction is caught here.
        const written = (row: ScreenRow) => !/tool/i.test(row.role) && row.text.length >= 60;
        const afterTexts = new Set(after.filter(written).map((row) => `${row.role}:${row.text}`));
        const dropped = before.filter((row) => row.dropped);
        expect(
          dropped.filter((row) => afterIds.has(row.id)).map((row) => row.id),
          `${where}: dropped rows present after by id`,
        ).toEqual([]);
        expect(
          dropped.filter((row) => written(row) && afterTexts.has(`${row.role}:${row.text}`)).map((row) => row.text.slice(0, 80)),
          `${where}: dropped rows present after by text`,
        ).toEqual([]);

        // The facts add up, and the chip says what the panel says.
        const digestText = (await digest.textContent()) ?? "";
        const score = /(\d+)\/(\d+) facts present in context after/.exec(digestText);
        if (score) {
          const [kept, asked] = [Number(score[1]), Number(score[2])];
          expect(await mark.locator(".timeline-score").textContent()).toBe(`${kept}/${asked}`);
          const panel = page.getByTestId("dropped-panel");
          if (!(await panel.evaluate((e) => (e as HTMLDetailsElement).open))) await panel.locator("summary").click();
          const facts = page.getByTestId("dropped-facts");
          await facts.waitFor();
          const fellOut = await facts.locator('li[data-fate="fell-out"]').count();
          const goneBefore = await facts.locator('li[data-fate="gone-before"]').count();
          expect(kept + fellOut + goneBefore, `${where}: kept + fell out + gone before`).toBe(asked);
          expect(await facts.locator("h3").textContent()).toContain(`(${fellOut} of ${asked} asked)`);
          const named = /fell out here: ([^·]+)/.exec(digestText)?.[1]?.split("; ").length ?? 0;
          expect(named, `${where}: facts named as fallen out on the panel's line`).toBe(fellOut);
        }
      }
      // Not vacuous: each of these sessions has compactions that dropped messages.
      expect(droppedSeen).toBeGreaterThan(0);
      expect(errors).toEqual([]);
      await context.close();
    }, 300_000);
  }
});
