/**
 * The checkride panel in Chromium: the literal reader's matrix and score
 * cards, evidence links, and the endpoint reader's browser path (the CSP
 * allows an endpoint only once the user allows it; CORS, a timeout, a 500
 * and malformed JSON are inconclusive, never fail).
 */
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startFakeEndpoint, type FakeEndpoint } from "../helpers/fake-endpoint.ts";
import { describeWithFixtures, fixturePath } from "../helpers/fixtures.ts";
import { SCREENSHOTS, foreignRequests, openApp, startHarness, toStrategies, type Harness, type OpenedPage } from "./harness.ts";

let harness: Harness;
let endpoint: FakeEndpoint;
const TREE = fixturePath("composed/pi-v3-tree.jsonl");

beforeAll(async () => {
  harness = await startHarness();
  endpoint = await startFakeEndpoint({
    files: "src/export.ts and src/csv.ts",
    verify: "npm test -- ledger passed",
    intent: "add a test for negative amounts in test/ledger.test.ts and open a PR referencing issue #318",
    anchors: "#318",
    rules: "never touch migrations/; always run npm test -- ledger before you say it works",
  });
});
afterAll(async () => {
  await endpoint?.close();
  await harness?.close();
});

async function loadTree(opened: OpenedPage) {
  await opened.page.getByTestId("file-input").setInputFiles(TREE);
  await opened.page.waitForFunction(
    () => document.querySelector(".session-name")?.textContent?.includes("pi-v3-tree.jsonl") && document.querySelector("[data-testid=active-pane] [data-testid=message-row]"),
  );
  await toStrategies(opened.page);
}

async function statuses(opened: OpenedPage, strategy: string) {
  const card = opened.page.locator(`section.score-card[aria-label="Checkride of ${strategy}"]`);
  return Object.fromEntries(await card.getByTestId("probe-row").evaluateAll((rows) => rows.map((r) => [r.getAttribute("data-probe-id"), r.getAttribute("data-status")])));
}

describeWithFixtures("checkride in the app", () => {
  it("switching strategies re-compacts; the matrix compares all; rounds show a planted fact per strategy", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    await loadTree(opened);
    const options = await page
      .getByTestId("strategy-select")
      .locator("option")
      .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
    expect(options).toEqual(["transparent", "recorded", "pi-default", "handoff", "brief"]);
    await page.getByTestId("strategy-select").selectOption("handoff");
    await page.getByText("Active context (handoff)").waitFor();
    await page.locator("[data-testid=active-pane] [data-message-id='handoff:staples']").waitFor();
    await page.getByTestId("strategy-select").selectOption("brief");
    await page.getByText("Active context (brief)").waitFor();
    await page.getByTestId("checkride-toggle").click();
    const panel = page.getByTestId("checkride-panel");
    await panel.getByRole("button", { name: "Run checkride" }).click();
    await panel.locator("[data-testid=checkride-score][data-strategy=brief]").waitFor();
    const rows = await panel.locator(".matrix tbody th").allTextContents();
    expect(rows).toEqual(["transparent", "recorded", "pi-default", "handoff · summary alone", "handoff · summary + staples", "handoff", "brief"]);
    await panel.getByLabel("Number of rounds").fill("3");
    await panel.getByLabel("Planted fact").fill("The staging database listens on port 6543.");
    await panel.getByLabel("Plant before message number").fill("2");
    await panel.getByRole("button", { name: "Run rounds" }).click();
    await panel.locator("[data-testid=rounds-row][data-strategy=transparent]").waitFor();
    const transparentRounds = await panel
      .locator("[data-testid=rounds-row][data-strategy=transparent] [data-planted]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-planted")));
    expect(transparentRounds).toEqual(["pass", "pass", "pass"]);
    await panel.locator(".rounds-table").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, "10-rounds.png") });
    await opened.context.close();
  });

  it("literal reader: cards side by side, a matrix, evidence that jumps to the row", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    await loadTree(opened);
    await page.getByTestId("checkride-toggle").click();
    const panel = page.getByTestId("checkride-panel");
    await panel.getByRole("button", { name: "Run checkride" }).click();
    await panel.locator("[data-testid=checkride-score][data-strategy=recorded]").waitFor();
    expect(await panel.locator("[data-testid=checkride-score][data-strategy=transparent]").textContent()).toBe("5/5");
    expect(await statuses(opened, "transparent")).toMatchObject({ files: "pass", verify: "pass", intent: "pass", rules: "pass", error: "skipped", done: "skipped" });
    expect(await statuses(opened, "recorded")).toMatchObject({ rules: "fail" });
    expect(await panel.textContent()).toContain("facts present in context");
    expect(await panel.locator(".matrix tbody tr").count()).toBe(7);
    await page.screenshot({ path: join(SCREENSHOTS, "08-checkride.png") });
    // Beside the key, how often it is right on blind-labelled sessions (the answer key's own measure).
    const rulesRow = panel.locator('section.score-card[aria-label="Checkride of transparent"] [data-probe-id=rules]');
    await rulesRow.scrollIntoViewIfNeeded();
    expect(await rulesRow.getByTestId("key-trust").textContent()).toMatch(
      /on blind-labelled sessions(: right \d+ of \d+, finds \d+ of \d+| this key graded none by itself \(a rule said once waits for you\); there its candidates found \d+ of the \d+ a reviewer labelled)/,
    );
    await rulesRow.screenshot({ path: join(SCREENSHOTS, "08-checkride-rules-probe.png") });
    await panel.locator('section.score-card[aria-label="Checkride of transparent"] [data-probe-id=rules] .evidence button').first().click();
    await page.locator("[data-testid=active-pane] .row.selected[data-message-id=a0000003]").waitFor();
    expect(foreignRequests(opened.requests, harness.origin)).toEqual([]);
    await opened.context.close();
  });

  it("endpoint reader: blocked until allowed, then graded; failures are inconclusive", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    await loadTree(opened);
    await page.getByTestId("checkride-toggle").click();
    const panel = page.getByTestId("checkride-panel");
    await panel.getByLabel("Reader").selectOption("endpoint");
    await panel.getByPlaceholder("http://127.0.0.1:8080/v1").fill(`${endpoint.url}/ok/v1`);
    await panel.getByPlaceholder("qwen2.5-coder").fill("tiny-model");
    // Not allowed yet: the run waits for the user to allow this origin.
    expect(await panel.getByRole("button", { name: "Run checkride" }).isDisabled()).toBe(true);
    await Promise.all([page.waitForEvent("load"), panel.getByRole("button", { name: `Allow ${endpoint.url}` }).click()]);
    const policies = await page.locator('meta[http-equiv="Content-Security-Policy"]').evaluateAll((metas) => metas.map((m) => m.getAttribute("content")));
    expect(policies).toContain(`connect-src 'self' ${endpoint.url}`);

    await loadTree(opened);
    await page.getByTestId("checkride-toggle").click();
    await panel.getByLabel("Reader").selectOption("endpoint");
    await panel.getByPlaceholder("qwen2.5-coder").fill("tiny-model");
    await panel.getByLabel("Endpoint timeout in seconds").fill("1");
    const run = async (path: string) => {
      await panel.getByPlaceholder("http://127.0.0.1:8080/v1").fill(`${endpoint.url}${path}`);
      await panel.getByRole("button", { name: "Run checkride" }).click();
      await panel.getByRole("button", { name: "Run checkride" }).waitFor();
      await page.waitForFunction(() => !document.querySelector("[data-testid=checkride-panel] button.primary[disabled]"));
      return statuses(opened, "transparent");
    };
    expect(await run("/ok/v1")).toMatchObject({ files: "pass", verify: "pass", intent: "pass", anchors: "pass", rules: "pass", error: "skipped" });
    expect(endpoint.requests.some((r) => r.path === "/ok/v1/chat/completions" && (r.body as { model?: string }).model === "tiny-model")).toBe(true);
    // The paper's measure beside the score: every graded answer correct here, none confidently wrong.
    const transparentCard = panel.locator('section.score-card[aria-label="Checkride of transparent"]');
    expect(await transparentCard.getByTestId("verdict-counts").textContent()).toContain("5 correct, 0 don't know, 0 confidently wrong");
    expect(await transparentCard.getByTestId("verdict").allTextContents()).toEqual(["correct", "correct", "correct", "correct", "correct"]);
    await page.screenshot({ path: join(SCREENSHOTS, "09-checkride-endpoint.png") });
    for (const path of ["/error500/v1", "/malformed/v1", "/slow/v1", "/nocors/v1"]) {
      const result = await run(path);
      expect(
        Object.values(result).every((status) => status === "inconclusive" || status === "skipped"),
        path,
      ).toBe(true);
    }
    // Only the allowed endpoint was ever contacted besides the page's own origin.
    expect(foreignRequests(opened.requests, harness.origin).every((url) => url.startsWith(endpoint.url))).toBe(true);
    await opened.context.close();
  });
});
