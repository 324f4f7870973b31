/**
 * Layout on real sessions at three sizes, light and dark: no row text is cut
 * without its "…" marker, with the selected-message panel open each pane still
 * shows at least 8 rows, the split between panes and panels is keyboard
 * resizable and remembered, and a found match is highlighted in its pane.
 * Screenshots land in test-results/screenshots/layout-*.png.
 */
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeWithFixtures, fixturePath } from "../helpers/fixtures.ts";
import { SCREENSHOTS, startHarness, type Harness } from "./harness.ts";
import type { Page } from "playwright-core";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const SESSIONS = [
  { name: "pi", path: "pi/JohnnyLai92__pi-mono__6edf3497.jsonl", find: "test" },
  { name: "codex", path: "codex/JaydenXsoe__ocodex__rollout-2025-08-26T20-20-25.jsonl", find: "cargo" },
  { name: "claude", path: "claude/DRMacIver__claude-reliability__python-to-rust-port.jsonl", find: "rust" },
];
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
];

async function open(width: number, height: number, scheme: "light" | "dark", path: string): Promise<Page> {
  const context = await harness.browser.newContext({ viewport: { width, height }, colorScheme: scheme });
  const page = await context.newPage();
  await page.goto(`${harness.origin}/`);
  await page.getByTestId("file-input").setInputFiles(fixturePath(path));
  await page.waitForFunction((name) => document.querySelector(".session-name")?.textContent?.includes(name), path.split("/").pop()!, { timeout: 30_000 });
  await page.getByTestId("load-progress").waitFor({ state: "detached", timeout: 30_000 });
  await page.locator("[data-testid=active-pane] [data-testid=message-row]").first().waitFor();
  // Measure the settled header: while tokens are still being counted the legend carries a longer
  // caption and the timeline a placeholder, so the panes' top moves once more (by up to 35 px at 1024).
  await page.waitForFunction(() => !document.querySelector('[data-estimated="true"], [data-testid=compaction-timeline][aria-busy]'), null, { timeout: 60_000 });
  await page.waitForTimeout(300);
  return page;
}

/** Row text elements that overflow their box without a marker ("…" by CSS or data-clipped with a "… more"). */
async function silentlyClipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const elements = document.querySelectorAll<HTMLElement>(
      "[data-testid=message-row] .block-text, [data-testid=message-row] .one-line, [data-testid=message-row] .omission-label, [data-testid=message-row] .row-header, [data-testid=message-row] .tool-info, [data-testid=compaction-divider] > span",
    );
    for (const element of elements) {
      const clipped = element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;
      if (!clipped) continue;
      const style = getComputedStyle(element);
      const marked =
        (element.dataset.clipped === "true" && !!element.parentElement?.querySelector("[data-testid=expand-block]")) ||
        // An ellipsis is drawn only in inline content: a flex box with text-overflow still cuts its items silently.
        (style.textOverflow === "ellipsis" && !style.display.includes("flex") && element.scrollHeight <= element.clientHeight + 1);
      if (!marked) out.push(`${element.className}: ${(element.textContent ?? "").slice(0, 60)}`);
    }
    return out;
  });
}

/** Rows of a pane at least 20 px of which are inside the pane's scroll viewport. */
async function visibleRows(page: Page, pane: string): Promise<number> {
  return page.evaluate((testId) => {
    const list = document.querySelector(`[data-testid=${testId}] .pane-list`);
    if (!list) return 0;
    const box = list.getBoundingClientRect();
    let count = 0;
    for (const row of list.querySelectorAll("[data-testid=message-row], .row")) {
      const r = row.getBoundingClientRect();
      if (Math.min(r.bottom, box.bottom) - Math.max(r.top, box.top) >= 20) count++;
    }
    return count;
  }, pane);
}

/** Sessions that record compactions: they open on the audit of the last one, the view an auditor reads first. */
const AUDITED = [
  { name: "claude-audit", path: "claude/entireio__cli__f9-f6f611b469.jsonl" },
  { name: "codex-audit", path: "codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl" },
  { name: "pi-audit", path: "pi/badlogic__pi-mono__before-compaction.jsonl" },
];

describeWithFixtures("layout on real sessions", () => {
  for (const session of AUDITED) {
    for (const size of [SIZES[0]!, SIZES[2]!]) {
      for (const scheme of ["light", "dark"] as const) {
        it(`${session.name} at ${size.width}×${size.height}, ${scheme}: the panes start in the top third`, async () => {
          const page = await open(size.width, size.height, scheme, session.path);
          await page.locator(".pane-title h2", { hasText: /Before compaction #\d+/ }).waitFor({ timeout: 30_000 });
          const digest = page.getByTestId("dropped-digest");
          await expect.poll(() => digest.textContent(), { timeout: 60_000 }).toMatch(/facts present in context after|messages/);
          // Measured once the timeline has read the file's compactions (its placeholder is a line shorter on a slow machine).
          await page.locator("[data-testid=compaction-timeline]:not([aria-busy])").waitFor({ timeout: 60_000 });
          await page.waitForTimeout(300);
          await page.screenshot({ path: join(SCREENSHOTS, `layout-${session.name}-${size.width}-${scheme}.png`) });
          const panesTop = await page.getByTestId("original-pane").evaluate((e) => e.getBoundingClientRect().top);
          console.log(`layout ${session.name} ${size.width}x${size.height} ${scheme}: panes start at ${Math.round(panesTop)} px`);
          expect(panesTop).toBeLessThan(size.height / 3);
          expect(await silentlyClipped(page)).toEqual([]);
          // The audit's one line: cut only with an ellipsis, and its whole text on hover.
          const line = await digest.evaluate((e) => ({
            text: e.textContent ?? "",
            overflow: getComputedStyle(e).textOverflow,
            title: e.parentElement?.getAttribute("title") ?? "",
          }));
          expect(line.overflow).toBe("ellipsis");
          expect(line.title).toContain(line.text);
          // Its details open on a click and fold again, the panes moving down only while they are open.
          await page.getByTestId("dropped-panel").locator("summary").click();
          await page.getByTestId("dropped-panel").locator("h3", { hasText: "Facts that fell out" }).waitFor();
          await page.getByTestId("dropped-panel").locator("summary").click();
          await expect.poll(() => page.getByTestId("original-pane").evaluate((e) => Math.round(e.getBoundingClientRect().top))).toBe(Math.round(panesTop));
        });
      }
    }
  }

  for (const session of SESSIONS) {
    for (const size of SIZES) {
      for (const scheme of ["light", "dark"] as const) {
        it(`${session.name} at ${size.width}×${size.height}, ${scheme}`, async () => {
          const page = await open(size.width, size.height, scheme, session.path);
          const shot = (what: string) => page.screenshot({ path: join(SCREENSHOTS, `layout-${session.name}-${size.width}-${scheme}-${what}.png`) });
          await shot("loaded");
          expect(await silentlyClipped(page)).toEqual([]);

          // The header leaves the panes most of the window.
          const panesTop = await page.getByTestId("original-pane").evaluate((e) => e.getBoundingClientRect().top);
          console.log(`layout ${session.name} ${size.width}x${size.height} ${scheme}: panes start at ${Math.round(panesTop)} px`);
          expect(panesTop).toBeLessThan(size.height / 3);

          // A panel open: the selected message. Each pane keeps at least 8 rows.
          await page.locator("[data-testid=active-pane] [data-testid=message-row]").nth(2).click();
          await page.locator(".detail").waitFor();
          await page.waitForTimeout(200);
          await shot("panel");
          expect(await visibleRows(page, "original-pane")).toBeGreaterThanOrEqual(8);
          expect(await visibleRows(page, "active-pane")).toBeGreaterThanOrEqual(8);
          const panel = await page.getByTestId("bottom-panels").evaluate((e) => e.getBoundingClientRect().height);
          expect(panel).toBeLessThanOrEqual(size.height * 0.45);

          // Find: a match is highlighted in its pane, counts per pane, Esc closes find and keeps the selection.
          const input = page.getByLabel("Find in session");
          await input.fill(session.find);
          await input.press("Enter");
          await page.getByTestId("find-counts").waitFor();
          await page.waitForTimeout(300);
          expect(await page.getByTestId("find-counts").textContent()).toMatch(/original \d+.*active \d+/);
          const highlighted = await page.locator(".row.find-current, [data-testid=find-hit]").count();
          expect(highlighted).toBeGreaterThan(0);
          await shot("find");
          await input.press("Escape");
          expect(await page.locator(".detail").count()).toBe(1);
          expect(await page.locator(".row.find-current").count()).toBe(0);
        });
      }
    }
  }

  it("the split is keyboard resizable and remembered after a reload", async () => {
    const page = await open(1280, 720, "light", SESSIONS[0]!.path);
    await page.locator("[data-testid=original-pane] [data-testid=message-row]").first().click();
    // The panel is open with its content (the handle belongs to it) before the keys go to the handle.
    await page.locator(".detail").waitFor();
    const handle = page.getByTestId("split-handle");
    const before = Number(await handle.getAttribute("aria-valuenow"));
    await handle.focus();
    await handle.press("ArrowUp");
    await handle.press("ArrowUp");
    await expect.poll(async () => Number(await handle.getAttribute("aria-valuenow"))).toBe(before + 48);
    const after = before + 48;
    expect(await page.getByTestId("bottom-panels").evaluate((e) => Math.round(e.getBoundingClientRect().height))).toBe(after);
    await page.reload();
    await page.getByTestId("file-input").setInputFiles(fixturePath(SESSIONS[0]!.path));
    await page.locator("[data-testid=original-pane] [data-testid=message-row]").first().click();
    expect(Number(await page.getByTestId("split-handle").getAttribute("aria-valuenow"))).toBe(after);
  });

  it("a clipped text opens in place and closes with Show less", async () => {
    const page = await open(1024, 768, "light", SESSIONS[0]!.path);
    const more = page.locator("[data-testid=original-pane] [data-testid=expand-block]").first();
    await more.click();
    const box = page.locator("[data-testid=original-pane] [data-testid=expanded-block]").first();
    await box.waitFor();
    await page.waitForFunction(() => !document.querySelector("[data-testid=expanded-block] pre")?.textContent?.startsWith("Loading"));
    expect((await box.textContent())!.length).toBeGreaterThan(20);
    await page.screenshot({ path: join(SCREENSHOTS, "layout-expanded.png") });
    await page.locator("[data-testid=original-pane] [data-testid=expand-block][aria-expanded=true]").first().click();
    expect(await page.locator("[data-testid=original-pane] [data-testid=expanded-block]").count()).toBe(0);
  });
});
