/**
 * Sharing in Chromium: the secret review list, a report opened from disk
 * (file://) with the network off that renders, requests nothing and shows the
 * app's scores, and presenter mode with its PNG capture.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { fixturePath, itWithFixtures } from "../helpers/fixtures.ts";
import { PLANTED, sessionWithSecrets } from "../helpers/secrets.ts";
import { SCREENSHOTS, openApp, startHarness, toStrategies, type Harness, type OpenedPage } from "./harness.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

async function load(opened: OpenedPage, file: string | { name: string; mimeType: string; buffer: Buffer }) {
  await opened.page.getByTestId("file-input").setInputFiles(file);
  const name = typeof file === "string" ? file.split("/").pop()! : file.name;
  await opened.page.waitForFunction(
    (n) => document.querySelector(".session-name")?.textContent?.includes(n) && document.querySelector("[data-testid=active-pane] [data-testid=message-row]"),
    name,
  );
  await toStrategies(opened.page);
}

describe("sharing", () => {
  // The session with planted secrets is built on a fixture: skipped, like the rest, on a clone without them.
  itWithFixtures("lists the secrets, masks them in the report; the report opens offline from disk with the app's scores", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    await load(opened, { name: "secrets.jsonl", mimeType: "application/json", buffer: Buffer.from(sessionWithSecrets()) });
    // The app's own scores for the same session and strategy.
    await page.getByTestId("checkride-toggle").click();
    await page.getByTestId("checkride-panel").getByRole("button", { name: "Run checkride" }).click();
    await page.locator("[data-testid=checkride-score][data-strategy=transparent]").waitFor();
    const appScores = Object.fromEntries(await page.getByTestId("checkride-score").evaluateAll((els) => els.map((e) => [e.getAttribute("data-strategy"), e.textContent])));
    await page.getByTestId("checkride-panel").getByRole("button", { name: "Close" }).click();

    await page.getByTestId("share-toggle").click();
    const panel = page.getByTestId("share-panel");
    await panel.getByTestId("finding-row").first().waitFor();
    expect(await panel.getByTestId("finding-row").count()).toBe(Object.keys(PLANTED).length);
    expect(await panel.textContent()).not.toContain(PLANTED["openai-key"]);
    // Keep the e-mail address: it must appear; everything else must not.
    const emailRow = panel.locator("[data-testid=finding-row]", { hasText: "email" });
    await emailRow.getByRole("checkbox").uncheck();
    await page.screenshot({ path: join(SCREENSHOTS, "11-share.png") });
    const [download] = await Promise.all([page.waitForEvent("download"), panel.getByTestId("download-report").click()]);
    const html = readFileSync((await download.path())!, "utf8");
    for (const [kind, value] of Object.entries(PLANTED)) {
      if (kind === "email") expect(html).toContain(value);
      else expect(html.includes(value), kind).toBe(false);
    }
    const reportFile = join(SCREENSHOTS, "..", "report.html");
    writeFileSync(reportFile, html);
    await opened.context.close();

    // Open the report from disk, offline, counting every request it makes.
    const context = await harness.browser.newContext({ offline: true, viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    context.on("request", (request) => requests.push(request.url()));
    const reportPage = await context.newPage();
    const errors: string[] = [];
    reportPage.on("pageerror", (error) => errors.push(error.message));
    reportPage.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    await reportPage.goto(`file://${reportFile}`);
    await reportPage.locator("#pairs .pair").first().waitFor();
    expect(requests.filter((url) => !url.startsWith("file://"))).toEqual([]);
    expect(errors).toEqual([]);
    const reportScores = Object.fromEntries(await reportPage.locator("[data-score]").evaluateAll((els) => els.map((e) => [e.getAttribute("data-score"), e.textContent])));
    for (const [strategy, score] of Object.entries(appScores)) expect(reportScores[strategy!], strategy!).toBe(score);
    await reportPage.getByRole("button", { name: "next →" }).click();
    await reportPage.screenshot({ path: join(SCREENSHOTS, "12-report.png"), fullPage: false });
    await context.close();
  });

  // On a file that records no compaction the presenter steps through the omission markers; the story of
  // recorded compactions is test/e2e/audit.e2e.test.ts's.
  itWithFixtures("presenter mode: large panes and the score, arrows step through omissions, a PNG capture", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    await load(opened, fixturePath("pi/JohnnyLai92__pi-mono__6edf3497.jsonl"));
    await page.getByTestId("present-toggle").click();
    await page.getByTestId("presenter-bar").waitFor();
    expect(await page.locator(".toolbar").isVisible()).toBe(false);
    await page.waitForFunction(() => /\d+\/\d+/.test(document.querySelector("[data-testid=presenter-score]")?.textContent ?? ""));
    await page.keyboard.press("ArrowRight");
    await page.locator("[data-testid=active-pane] .row.selected [data-testid=omission-marker]").first().waitFor();
    await page.keyboard.press("ArrowRight");
    await page.screenshot({ path: join(SCREENSHOTS, "13-presenter.png") });
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Capture PNG" }).click()]);
    const png = readFileSync((await download.path())!);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.length).toBeGreaterThan(10_000);
    writeFileSync(join(SCREENSHOTS, "14-capture.png"), png);
    await page.keyboard.press("ArrowDown");
    await page
      .getByTestId("presenter-bar")
      .getByText(/round 2/)
      .waitFor();
    await page.keyboard.press("Escape");
    expect(await page.locator(".toolbar").isVisible()).toBe(true);
    await opened.context.close();
  });
});
