/**
 * The built app in Chromium: load real fixtures through the file input, see
 * both panes and the markers, recover with a verified hash, bad input keeps
 * the previous session, the keyboard works, links survive a reload, and no
 * request leaves the origin. Screenshots land in test-results/screenshots/.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/cli.ts";
import { fixturePath, itWithFixtures } from "../helpers/fixtures.ts";
import { SCREENSHOTS, foreignRequests, openApp, startHarness, toStrategies, type Harness, type OpenedPage } from "./harness.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const REAL_PI = fixturePath("pi/JohnnyLai92__pi-mono__6edf3497.jsonl");

async function loadFile(opened: OpenedPage, path: string): Promise<void> {
  await opened.page.getByTestId("file-input").setInputFiles(path);
  await opened.page.waitForFunction((name) => document.querySelector(".session-name")?.textContent?.includes(name), path.split("/").pop()!, { timeout: 30_000 });
  // The name shows with the preview; the load is over when its progress banner goes.
  await opened.page.getByTestId("load-progress").waitFor({ state: "detached", timeout: 30_000 });
  await toStrategies(opened.page);
}

describe("the inspector in Chromium", () => {
  it("opens on the demo session, with a CSP and no foreign requests", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    // The original branch shows first (the preview), the active context when its compaction lands.
    await page.getByTestId("message-row").first().waitFor();
    await page.locator("[data-testid=active-pane] [data-testid=omission-marker]").first().waitFor();
    expect(await page.locator("[data-testid=original-pane] [data-testid=message-row]").count()).toBeGreaterThan(3);
    const policies = await page.locator('meta[http-equiv="Content-Security-Policy"]').evaluateAll((metas) => metas.map((m) => m.getAttribute("content")));
    expect(policies).toContain("connect-src 'self'");
    expect(policies.join("; ")).toContain("script-src 'self'");
    expect(policies.join("; ")).toContain("object-src 'none'");
    await page.screenshot({ path: join(SCREENSHOTS, "01-demo.png") });
    expect(foreignRequests(opened.requests, harness.origin)).toEqual([]);
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  });

  itWithFixtures("loads a real Pi session, shows both panes and markers, recovers one with a verified hash", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    await loadFile(opened, REAL_PI);
    const original = page.getByTestId("original-pane");
    const active = page.getByTestId("active-pane");
    await active.getByTestId("omission-marker").first().waitFor();
    expect(await original.getByTestId("message-row").count()).toBeGreaterThan(3);
    expect(await page.getByTestId("stats-original-chars").textContent()).toMatch(/^[\d,]+$/);
    expect(await page.getByTestId("stats-payloads").textContent()).not.toBe("0");

    // The same source message heads both panes.
    const firstOriginal = await original.getByTestId("message-row").first().getAttribute("data-message-id");
    const firstActive = await active.getByTestId("message-row").first().getAttribute("data-message-id");
    expect(firstActive).toBe(firstOriginal);

    const marker = active.getByTestId("omission-marker").first();
    const recoveryId = await marker.getAttribute("data-recovery-id");
    const sha = await marker.getAttribute("data-sha256");
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    await marker.getByTestId("recover-button").click();
    const payload = page.locator(`[data-testid=recovered-payload][data-recovery-id="${recoveryId}"]`).first();
    await payload.waitFor();
    expect(await payload.getAttribute("data-verified")).toBe("true");
    expect(await payload.textContent()).toContain(sha!.slice(0, 12));
    await page.screenshot({ path: join(SCREENSHOTS, "02-real-pi-recovered.png") });
    expect(foreignRequests(opened.requests, harness.origin)).toEqual([]);
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  });

  itWithFixtures("a bad file shows load-error with the reason and line; the previous session stays", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    await loadFile(opened, fixturePath("composed/pi-v3-tree.jsonl"));
    const firstBefore = await page.getByTestId("message-row").first().getAttribute("data-message-id");
    await page.getByTestId("file-input").setInputFiles({ name: "broken.jsonl", mimeType: "application/json", buffer: Buffer.from('this is not json\n{"also": \n') });
    const error = page.getByTestId("load-error");
    await error.waitFor();
    expect(await error.textContent()).toMatch(/broken\.jsonl.*line 1/);
    expect(await page.getByTestId("message-row").first().getAttribute("data-message-id")).toBe(firstBefore);
    expect(await page.getByTestId("message-row").count()).toBeGreaterThan(5);
    expect(await page.locator(".session-name").textContent()).toContain("pi-v3-tree.jsonl");
    await page.screenshot({ path: join(SCREENSHOTS, "03-load-error.png") });
    // Binary bytes get their own clear reason.
    await page.getByTestId("file-input").setInputFiles({ name: "image.png", mimeType: "image/png", buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) });
    await page.waitForFunction(() => document.querySelector("[data-testid=load-error]")?.textContent?.includes("binary"));
    await opened.context.close();
  });

  itWithFixtures("lenient warnings are listed; branches can be switched; the strategy control is there", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    await loadFile(opened, fixturePath("claude/entireio__cli__d0-161e0df1cb.jsonl"));
    await page.getByText(/1 warning while reading/).click();
    expect(await page.locator(".warnings li").first().textContent()).toContain("line 776");
    await loadFile(opened, fixturePath("composed/pi-v3-tree.jsonl"));
    const leaves = await page.getByTestId("leaf-select").locator("option").allTextContents();
    expect(leaves).toHaveLength(2);
    expect(leaves.join("|")).toContain("backfills null amounts");
    await page.getByTestId("leaf-select").selectOption("b0000004");
    await page.waitForFunction(() => document.querySelector("[data-message-id=b0000003]") !== null);
    expect(await page.locator("[data-message-id=c0000001]").count()).toBe(0);
    expect(await page.getByTestId("strategy-select").inputValue()).toBe("transparent");
    await opened.context.close();
  });

  itWithFixtures("keyboard: j selects, n jumps to an omission, Enter recovers, / finds, ? helps", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    await loadFile(opened, fixturePath("composed/pi-v3-tree.jsonl"));
    await page.locator("body").press("j");
    await page.locator(".row.selected").first().waitFor();
    // With the selected-message panel open the panes list one line per message: the marker `n` lands on
    // is shown whole in the panel, and Enter recovers it there.
    await page.locator("body").press("n");
    const selectedId = await page.locator("[data-testid=active-pane] .row.selected").getAttribute("data-message-id");
    await page.locator(".detail [data-testid=omission-marker]").first().waitFor();
    expect(await page.locator(".detail").textContent()).toContain(selectedId!);
    await page.locator("body").press("Enter");
    await page.locator(".detail [data-testid=recovered-payload][data-verified=true]").first().waitFor();
    await page.locator("body").press("/");
    await page.keyboard.type("migrations");
    await page.keyboard.press("Enter");
    await page.getByText(/1 \/ \d+ in the active context/).waitFor();
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("?");
    await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, "04-keyboard-help.png") });
    await page.keyboard.press("Escape");
    expect(await page.getByRole("dialog").count()).toBe(0);
    await opened.context.close();
  });

  itWithFixtures("a deep link survives a reload once the same file is dropped again", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    await loadFile(opened, fixturePath("composed/pi-v3-tree.jsonl"));
    await page.locator("[data-testid=active-pane] [data-message-id=c0000006]").click();
    await page.waitForFunction(() => location.hash.includes("m=c0000006"));
    const hash = await page.evaluate(() => location.hash);
    expect(hash).toMatch(/f=[0-9a-f]{16}/);
    await page.reload();
    await page.getByText(/Drop that file again/).waitFor();
    await loadFile(opened, fixturePath("composed/pi-v3-tree.jsonl"));
    await page.locator("[data-testid=active-pane] .row.selected[data-message-id=c0000006]").waitFor();
    await opened.context.close();
  });

  itWithFixtures("the prose cap shows capped blocks and a word diff; recompaction keeps the markers", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    await loadFile(opened, fixturePath("composed/pi-v3-tree.jsonl"));
    // The whole archive, before and after a recompaction round: every id keeps its hash.
    const exportArchive = async () => {
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export checkpoint" }).click()]);
      const checkpoint = JSON.parse(readFileSync((await download.path())!, "utf8"));
      return new Map<string, string>(checkpoint.archive.map((e: { id: string; sha256: string }) => [e.id, e.sha256]));
    };
    const before = await exportArchive();
    await page.getByRole("button", { name: /Compact again/ }).click();
    await page
      .getByText(/round 2/)
      .first()
      .waitFor();
    const after = await exportArchive();
    expect(before.size).toBeGreaterThan(0);
    for (const [id, sha] of before) expect(after.get(id)).toBe(sha);
    await page.getByLabel("Prose cap in characters").fill("150");
    await page.getByLabel("Prose cap in characters").press("Enter");
    await page.locator("[data-testid=active-pane] .badge-warn").first().waitFor();
    await page.locator("[data-testid=active-pane] .row:has(.badge-warn)").first().click();
    await page.locator(".diff-body .removed").first().waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, "05-prose-cap-diff.png") });
    await opened.context.close();
  });

  itWithFixtures("export downloads a checkpoint that names its source", async () => {
    const opened = await openApp(harness);
    const { page } = opened;
    await loadFile(opened, fixturePath("composed/pi-v3-tree.jsonl"));
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export checkpoint" }).click()]);
    const path = await download.path();
    const checkpoint = JSON.parse(readFileSync(path!, "utf8"));
    expect(checkpoint.schema).toBe("session-inspector/checkpoint@1");
    expect(checkpoint.source.name).toBe("pi-v3-tree.jsonl");
    // The file is hashed on a worker of its own while the session worker compacts: the hash is the file's.
    expect(checkpoint.source.sha256).toBe(
      createHash("sha256")
        .update(readFileSync(fixturePath("composed/pi-v3-tree.jsonl")))
        .digest("hex"),
    );
    expect(checkpoint.archive.length).toBe(Number((await page.getByTestId("stats-payloads").textContent())!.replace(/,/g, "")));
    await opened.context.close();
  });

  itWithFixtures("exports byte for byte the checkpoint the CLI writes for the same real session", async () => {
    // The worker hashes with core/sha256.ts and WebCrypto, the CLI with Node's native SHA-256 and
    // its own writer: the files must still be the same bytes (the CLI adds a final newline).
    const opened = await openApp(harness);
    const { page } = opened;
    for (const relative of [
      "pi/JohnnyLai92__pi-mono__6edf3497.jsonl",
      "claude/entireio__cli__d0-161e0df1cb.jsonl",
      "codex/JaydenXsoe__ocodex__rollout-2025-08-26T20-20-25.jsonl",
    ]) {
      const fixture = fixturePath(relative);
      await loadFile(opened, fixture);
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export checkpoint" }).click()]);
      const exported = readFileSync((await download.path())!, "utf8");
      const cli = runCli(["compact", fixture, "--token-counts"]);
      expect(cli.status).toBe(0);
      expect(JSON.parse(exported).source.name).toBe(relative.split("/")[1]);
      expect(exported + "\n").toBe(cli.stdout);
    }
    await opened.context.close();
  });

  it("dark theme follows the system", async () => {
    const context = await harness.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto(harness.origin);
    await page.getByTestId("message-row").first().waitFor();
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(22, 24, 28)");
    await page.screenshot({ path: join(SCREENSHOTS, "06-dark.png") });
    await context.close();
    expect(ROOT).toBeTruthy();
  });
});
