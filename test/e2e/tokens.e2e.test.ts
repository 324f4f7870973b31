/**
 * Token figures in the browser on real Claude Code and Codex sessions: the
 * stats show the model-view counts (equal to the CLI's `compact` stats), the
 * file's recorded input at its last turn beside the model-view count of the
 * same context (equal to the CLI's `inspect`), the window where the file
 * states it, tokens per row, and the composition the HTML report shows.
 * Screenshots light and dark at 1440 and 1024 px.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { describeWithFixtures, fixturePath } from "../helpers/fixtures.ts";
import { SCREENSHOTS, foreignRequests, openApp, startHarness, toStrategies, type Harness, type OpenedPage } from "./harness.ts";

const CLAUDE = fixturePath("claude/entireio__cli__d0-161e0df1cb.jsonl");
const CODEX = fixturePath("codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl");

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const num = (text: string | null) => Number((text ?? "").replace(/[^0-9]/g, ""));

async function loadExact(opened: OpenedPage, path: string): Promise<void> {
  const { page } = opened;
  await page.getByTestId("file-input").setInputFiles(path);
  await page.waitForFunction((name) => document.querySelector(".session-name")?.textContent?.includes(name), path.split("/").pop()!, { timeout: 60_000 });
  await page.getByTestId("load-progress").waitFor({ state: "detached", timeout: 60_000 });
  await toStrategies(page);
  // The budgeted figures are replaced by the worker's exact count.
  await page
    .locator(".stats[data-tokens-exact=true] [data-testid=stats-usage-explainer], .stats[data-tokens-exact=true] [data-testid=stats-context-window]")
    .first()
    .waitFor({ timeout: 60_000 });
}

function cliFigures(path: string) {
  const out = `/tmp/tokensui-e2e-${process.pid}.json`;
  const compact = runCli(["compact", path, "--strategy", "transparent", "--token-counts", "--output", out]);
  expect(compact.status, compact.stderr).toBe(0);
  const checkpoint = JSON.parse(readFileSync(out, "utf8")) as { stats: { activeTokens: number; originalTokens: number } };
  const inspect = runCli(["inspect", path]);
  expect(inspect.status, inspect.stderr).toBe(0);
  const summary = JSON.parse(inspect.stdout) as { usage: { last: { contextTokens: number } | null; contextWindow: number | null }; modelViewTokens: { lastTurn: number | null } };
  return { ...checkpoint.stats, usage: summary.usage, lastTurnView: summary.modelViewTokens.lastTurn };
}

/** The HTML report's composition for the same file and strategy: label → tokens, from its bar's titles. */
function reportComposition(path: string): Map<string, number> {
  const out = `/tmp/tokensui-e2e-${process.pid}.html`;
  const report = runCli(["report", path, "--strategy", "transparent", "--format", "html", "--no-redact", "--output", out]);
  expect(report.status, report.stderr).toBe(0);
  const html = readFileSync(out, "utf8");
  const parts = new Map<string, number>();
  for (const match of html.matchAll(/<div style="flex-grow:(\d+);background:[^"]*" title="([^":]+): [\d,]+ o200k/g)) parts.set(match[2]!, Number(match[1]));
  return parts;
}

async function appComposition(opened: OpenedPage): Promise<Map<string, number>> {
  const parts = await opened.page
    .locator("[data-testid=composition-part]")
    .evaluateAll((nodes) => nodes.map((n) => [(n.getAttribute("title") ?? "").split(":")[0]!, Number(n.getAttribute("data-tokens"))] as const));
  return new Map(parts);
}

async function shoot(path: string, name: string): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    for (const width of [1440, 1024]) {
      const opened = await openApp(harness, "", { width, height: 900 });
      await opened.page.emulateMedia({ colorScheme });
      await loadExact(opened, path);
      await opened.page.locator("[data-testid=active-pane] [data-testid=row-tokens]").first().waitFor({ timeout: 30_000 });
      await opened.page.screenshot({ path: join(SCREENSHOTS, `tokens-${name}-${colorScheme}-${width}.png`) });
      await opened.context.close();
    }
  }
}

describeWithFixtures("token figures in Chromium on real sessions", () => {
  it("Claude Code: model-view tokens equal the CLI's, the file's last turn beside the view's count, composition equals the report's", async () => {
    const cli = cliFigures(CLAUDE);
    const opened = await openApp(harness);
    const { page } = opened;
    await loadExact(opened, CLAUDE);
    expect(num(await page.getByTestId("stats-original-tokens").textContent())).toBe(cli.originalTokens);
    expect(num(await page.getByTestId("stats-active-tokens").textContent())).toBe(cli.activeTokens);
    expect(await page.getByTestId("stats-active-tokens").getAttribute("data-estimated")).toBe("false");
    expect(cli.usage.last).not.toBeNull();
    expect(num(await page.getByTestId("stats-recorded-input").textContent())).toBe(cli.usage.last!.contextTokens);
    expect(num(await page.getByTestId("stats-lastturn-view").textContent())).toBe(cli.lastTurnView);
    expect(await page.getByTestId("stats-usage-explainer").textContent()).toMatch(/system prompt and tool definitions|zeroes usage/);
    // Claude Code files state no window: the stats say so.
    expect(await page.getByTestId("stats-context-window").textContent()).toContain("window not stated in the file");
    // The composition bar: the same categories and tokens as the HTML report, summing to the active count.
    const app = await appComposition(opened);
    const report = reportComposition(CLAUDE);
    expect(report.size).toBeGreaterThan(2);
    expect(Object.fromEntries(app)).toEqual(Object.fromEntries(report));
    expect([...app.values()].reduce((a, b) => a + b, 0)).toBe(cli.activeTokens);
    // Tokens per row, from the worker.
    await page.locator("[data-testid=active-pane] [data-testid=row-tokens]").first().waitFor({ timeout: 30_000 });
    expect(num(await page.locator("[data-testid=active-pane] [data-testid=row-tokens]").first().textContent())).toBeGreaterThan(0);
    // The picker explains the strategy in plain words and names the paper.
    expect(await page.getByTestId("strategy-description").textContent()).toContain("Woolford");
    expect(await page.getByTestId("prose-share").textContent()).toMatch(/prose is \d+% of the active context/);
    expect(foreignRequests(opened.requests, harness.origin)).toEqual([]);
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  }, 240_000);

  it("Codex: the file's window and last turn, the model-view count beside it, equal to the CLI's", async () => {
    const cli = cliFigures(CODEX);
    const opened = await openApp(harness);
    const { page } = opened;
    await loadExact(opened, CODEX);
    expect(num(await page.getByTestId("stats-original-tokens").textContent())).toBe(cli.originalTokens);
    expect(num(await page.getByTestId("stats-active-tokens").textContent())).toBe(cli.activeTokens);
    expect(cli.usage.contextWindow).not.toBeNull();
    expect(num(await page.getByTestId("stats-context-window").textContent())).toBe(cli.usage.contextWindow);
    expect(num(await page.getByTestId("stats-recorded-input").textContent())).toBe(cli.usage.last!.contextTokens);
    expect(num(await page.getByTestId("stats-lastturn-view").textContent())).toBe(cli.lastTurnView);
    expect(await page.getByTestId("stats-usage-explainer").textContent()).toContain("system prompt and tool definitions");
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  }, 240_000);

  it("the picker says when two strategies give the same active context, and why (computed from the checkpoints)", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    await page.getByLabel("Open a demo session").selectOption("demos/openai-rename.json");
    await page.locator(".stats[data-tokens-exact=true]").waitFor({ timeout: 60_000 });
    const same = page.getByTestId("strategy-same");
    await same.waitFor({ timeout: 60_000 });
    const text = (await same.textContent()) ?? "";
    expect(text).toContain("Brief");
    expect(text).toMatch(/nothing was briefed/);
    // Switching to Brief: the note names Transparent back.
    await page.getByTestId("strategy-select").selectOption("brief");
    await page.waitForFunction(() => document.querySelector("[data-testid=strategy-same]")?.textContent?.includes("Transparent"), undefined, { timeout: 60_000 });
    // Labels in the picker are whole words (short labels; the long description is in the note).
    const labels = await page.getByTestId("strategy-select").locator("option").allTextContents();
    expect(labels.every((label) => label.length <= 16)).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, "tokens-same-result.png") });
    await opened.context.close();
  }, 120_000);

  it("screenshots: light and dark at 1440 and 1024", async () => {
    await shoot(CLAUDE, "claude");
    await shoot(CODEX, "codex");
  }, 600_000);
});
