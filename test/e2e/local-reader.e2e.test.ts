/**
 * The local reader in Chromium (issue #28): the project's generated GGUF
 * model (random weights: the answers are noise) picked through the file
 * input, loaded by llama.cpp in WebAssembly inside the session worker,
 * prompted per probe and graded. The mechanism is checked (a verdict per
 * graded probe, the model's identity and time beside the score, nothing
 * fetched from anywhere), never a score; a file that is not GGUF is one
 * clear error.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeWithFixtures, fixturePath } from "../helpers/fixtures.ts";
import { testModelPath } from "../helpers/test-model.ts";
import { SCREENSHOTS, foreignRequests, openApp, startHarness, toStrategies, type Harness, type OpenedPage } from "./harness.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

async function openCheckride(opened: OpenedPage) {
  const { page } = opened;
  await page.getByTestId("file-input").setInputFiles(fixturePath("composed/pi-v3-tree.jsonl"));
  await page.waitForFunction(() => document.querySelector("[data-testid=active-pane] [data-testid=message-row]"));
  await toStrategies(page);
  await page.getByTestId("checkride-toggle").click();
  const panel = page.getByTestId("checkride-panel");
  // One strategy: the point is the mechanism, and each probe is a model run.
  const transparent = panel.locator(".strategies label", { hasText: /^\s*transparent\s*$/ }).locator("input");
  await transparent.check();
  for (const label of await panel.locator(".strategies label").all()) {
    if ((await label.textContent())?.trim() === "transparent") continue;
    const box = label.locator("input");
    if (await box.isChecked()) await box.uncheck();
  }
  await panel.getByLabel("Reader").selectOption("local");
  return panel;
}

describeWithFixtures("the local reader in the app", () => {
  it("runs the picked GGUF in the tab: a verdict and a time per probe, the model named beside the score, nothing fetched", async () => {
    const opened = await openApp(harness);
    const panel = await openCheckride(opened);
    expect(await panel.getByRole("button", { name: "Run checkride" }).isDisabled()).toBe(true); // no model picked yet
    await panel.getByLabel("Model file (.gguf)").setInputFiles(testModelPath());
    const started = Date.now();
    await panel.getByRole("button", { name: "Run checkride" }).click();
    const score = panel.locator("[data-testid=checkride-score][data-strategy=transparent]");
    await score.waitFor({ timeout: 240_000 });
    const seconds = (Date.now() - started) / 1000;
    const card = panel.locator('section.score-card[aria-label="Checkride of transparent"]');
    const heading = (await card.locator("h3").textContent())!;
    expect(heading).toContain("answered correctly by session-inspector test model (random weights) (F32, 4,096-token window, wllama 2.4.0 (llama.cpp in WebAssembly)");
    const verdicts = await card.getByTestId("verdict").allTextContents();
    expect(verdicts.length).toBe(5);
    for (const verdict of verdicts) expect(["correct", "don't know", "confidently wrong"]).toContain(verdict);
    expect(await card.getByTestId("verdict-counts").textContent()).toMatch(/\d+ correct, \d+ don't know, \d+ confidently wrong/);
    expect(foreignRequests(opened.requests, harness.origin)).toEqual([]);
    expect(opened.errors).toEqual([]);
    console.log(`local reader in Chromium: 5 probes on the test model in ${seconds.toFixed(1)} s (model load included)`);
    await card.scrollIntoViewIfNeeded();
    await opened.page.screenshot({ path: join(SCREENSHOTS, "checkride-local-1440-light.png") });
    await opened.context.close();
  }, 300_000);

  it("a file that is not GGUF: one clear error, no crash", async () => {
    const opened = await openApp(harness);
    const panel = await openCheckride(opened);
    const notModel = join(tmpdir(), "si-notes.gguf");
    writeFileSync(notModel, "hello, this is text");
    await panel.getByLabel("Model file (.gguf)").setInputFiles(notModel);
    await panel.getByRole("button", { name: "Run checkride" }).click();
    await panel.getByRole("alert").waitFor({ timeout: 60_000 });
    expect(await panel.getByRole("alert").textContent()).toContain('si-notes.gguf: not a GGUF model file (it starts with "hell", not "GGUF")');
    await opened.context.close();
  }, 120_000);
});
