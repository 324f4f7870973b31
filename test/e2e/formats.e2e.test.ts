/**
 * The newer agents' sessions in Chromium: each real file of Gemini CLI,
 * GitHub Copilot CLI and OpenCode, and the composed shapes no public file
 * shows (a Gemini JSONL session, a Roo condensation, an OpenCode prune, a
 * Cline task folder), loads as its own format with exactly the recorded
 * compactions the CLI's `audit` lists; a file with compactions opens on the
 * audit of the last one.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { runCli } from "../helpers/cli.ts";
import { aiderHistory, clineTask, clineUiLog, cursorTranscript, kiroSave, geminiJsonl, openCodePruned, qwenChat, rooHistory } from "../helpers/composed-sessions.ts";
import { describeWithFixtures, fixturePath, PRESENT_OPTIONAL_FIXTURES } from "../helpers/fixtures.ts";
import { opencodeDatabase, testSqlite, type ExportShape } from "../helpers/opencode-db.ts";
import { SCREENSHOTS, foreignRequests, openApp, startHarness, type Harness } from "./harness.ts";

let harness: Harness;
let temp: string;
beforeAll(async () => {
  harness = await startHarness();
  temp = mkdtempSync(join(tmpdir(), "si-formats-"));
});
afterAll(async () => {
  await harness?.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

/** What the CLI says of a file or a folder: its format and how many compactions it records. */
function cliFigures(path: string): { format: string; compactions: number } {
  const inspect = runCli(["inspect", path, "--json"]);
  expect(inspect.status, inspect.stderr).toBe(0);
  const audit = runCli(["audit", path, "--json"]);
  expect(audit.status, audit.stderr).toBe(0);
  // A file gives one object; a folder (a Cline task) one JSON line per session and per compaction.
  const compactions = audit.stdout.startsWith('{"kind"')
    ? audit.stdout
        .trim()
        .split("\n")
        .filter((line) => JSON.parse(line).kind === "compaction").length
    : JSON.parse(audit.stdout).compactions.length;
  return { format: JSON.parse(inspect.stdout).format, compactions };
}

/** The format and compactions the app shows for the session on screen. */
async function expectOnScreen(page: Page, expected: { format: string; compactions: number }): Promise<void> {
  await page.getByTestId("load-progress").waitFor({ state: "detached", timeout: 60_000 });
  await page.locator(".stats-session", { hasText: expected.format }).waitFor({ timeout: 60_000 });
  const timeline = page.getByTestId("compaction-timeline");
  if (expected.compactions === 0) {
    await page.locator(".pane-title h2", { hasText: "Original branch" }).waitFor({ timeout: 30_000 });
    await timeline
      .locator("strong, :scope")
      .filter({ hasText: /No recorded compactions|No compactions recorded|records no compactions/ })
      .first()
      .waitFor({ timeout: 30_000 });
    return;
  }
  await page.locator(".pane-title h2", { hasText: `Before compaction #${expected.compactions}` }).waitFor({ timeout: 60_000 });
  await timeline
    .locator(".timeline-mark")
    .nth(expected.compactions - 1)
    .waitFor({ timeout: 30_000 });
  expect(await timeline.locator(".timeline-mark").count()).toBe(expected.compactions);
  await page.locator("[data-testid=active-pane] [data-testid=message-row]").first().waitFor();
}

describeWithFixtures("real sessions of the newer agents", () => {
  for (const relative of [
    "gemini/savekirk__session-bridge__gemini-session-cdb14b05.json",
    "copilot/polecatspeaks__StarCar__events-11-9681650804.jsonl",
    "opencode/savekirk__session-bridge__opencode-export-ses_277daa810ffe.json",
  ]) {
    const agent = relative.split("/")[0]!;
    it(`${agent}: its own format, the compactions it records`, async () => {
      const path = fixturePath(relative);
      const expected = cliFigures(path);
      expect(expected.format).toBe(agent);
      const opened = await openApp(harness);
      await opened.page.getByTestId("file-input").setInputFiles(path);
      await expectOnScreen(opened.page, expected);
      await opened.page.screenshot({ path: join(SCREENSHOTS, `formats-${agent}-1440-light.png`) });
      expect(foreignRequests(opened.requests, harness.origin)).toEqual([]);
      expect(opened.errors).toEqual([]);
      await opened.context.close();
    });
  }
});

/** A real Kiro CLI save (optional: tested where `npm run fixtures` found it), at both widths and in both schemes. */
const REAL_KIRO = "kiro/meta-introspector__kiro.el__-shell--7--20260310-172011-compacted.json";
describe.skipIf(!PRESENT_OPTIONAL_FIXTURES.includes(REAL_KIRO))("a real Kiro CLI save", () => {
  it("its own format and its /compact, at 1440 and 1024, light and dark", async () => {
    const path = fixturePath(REAL_KIRO);
    const expected = cliFigures(path);
    expect(expected).toMatchObject({ format: "kiro", compactions: 1 });
    const opened = await openApp(harness);
    await opened.page.getByTestId("file-input").setInputFiles(path);
    await expectOnScreen(opened.page, expected);
    for (const width of [1440, 1024]) {
      for (const scheme of ["light", "dark"] as const) {
        await opened.page.setViewportSize({ width, height: 900 });
        await opened.page.emulateMedia({ colorScheme: scheme });
        await opened.page.screenshot({ path: join(SCREENSHOTS, `formats-kiro-real-${width}-${scheme}.png`) });
      }
    }
    expect(foreignRequests(opened.requests, harness.origin)).toEqual([]);
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  });
});

describe("composed shapes of the newer agents", () => {
  const composed: [string, string, () => string][] = [
    ["gemini", "session-2025-01-01T10-00-abcdef12.jsonl", geminiJsonl],
    ["cline", "api_conversation_history.json", rooHistory],
    ["opencode", "opencode-export-pruned.json", openCodePruned],
    ["qwen", "3f2a.jsonl", qwenChat],
    ["kiro", "ledger-20260310-140433.json", () => JSON.stringify(kiroSave())],
  ];
  for (const [format, name, make] of composed) {
    it(`${format} (${name}): its own format, the compactions it records`, async () => {
      const dir = join(temp, format);
      mkdirSync(dir, { recursive: true });
      const path = join(dir, name);
      writeFileSync(path, make());
      const expected = cliFigures(path);
      expect(expected.compactions).toBeGreaterThan(0);
      const opened = await openApp(harness);
      await opened.page.getByTestId("file-input").setInputFiles(path);
      await expectOnScreen(opened.page, expected);
      if (format === "kiro") {
        for (const [width, scheme] of [
          [1440, "light"],
          [1024, "dark"],
        ] as const) {
          await opened.page.setViewportSize({ width, height: 900 });
          await opened.page.emulateMedia({ colorScheme: scheme });
          await opened.page.screenshot({ path: join(SCREENSHOTS, `formats-kiro-${width}-${scheme}.png`) });
        }
      }
      expect(opened.errors).toEqual([]);
      await opened.context.close();
    });
  }

  it("an OpenCode database (opencode.db): the latest session, its compactions, and the warning naming which of how many", async () => {
    const dir = join(temp, "opencode-db");
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "opencode.db");
    const pruned = JSON.parse(openCodePruned()) as ExportShape;
    const older: ExportShape = {
      info: { ...pruned.info, id: "ses_old", title: "an older one" },
      messages: pruned.messages.slice(0, 1).map(({ info, parts }) => ({
        info: { ...info, id: `${String(info.id)}_old`, sessionID: "ses_old" },
        parts: parts.map((part) => ({ ...part, id: `${String(part.id)}_old`, messageID: `${String(info.id)}_old`, sessionID: "ses_old" })),
      })),
    };
    // The pruned session is the database's newest (sessions are ordered by when they were updated).
    writeFileSync(path, opencodeDatabase(await testSqlite(), [older, pruned]));
    const expected = cliFigures(path);
    // The same compactions as the session's own export shows.
    const exported = join(dir, "export.json");
    writeFileSync(exported, JSON.stringify(pruned));
    expect(expected).toEqual({ format: "opencode", compactions: cliFigures(exported).compactions });
    const opened = await openApp(harness);
    await opened.page.getByTestId("file-input").setInputFiles(path);
    await expectOnScreen(opened.page, expected);
    await opened.page.getByText(/1 warning while reading/).click();
    await opened.page
      .locator(".warnings li")
      .getByText(/this database holds 2 sessions; showing "composed" \(ses_c/)
      .waitFor();
    await opened.page.screenshot({ path: join(SCREENSHOTS, "formats-opencode-db-1440-light.png") });
    // The other session of the database, from its picker: read again from the same file.
    const picker = opened.page.getByTestId("database-session-select");
    expect(await picker.inputValue()).toBe("ses_c");
    await picker.selectOption("ses_old");
    await opened.page.locator("[data-testid=original-pane] .pane-title", { hasText: "1 message" }).waitFor({ timeout: 30_000 });
    expect(await picker.inputValue()).toBe("ses_old");
    await opened.page.getByText(/1 warning while reading/).click();
    await opened.page
      .locator(".warnings li")
      .getByText(/showing "an older one" \(ses_old, the one asked for\)/)
      .waitFor();
    await opened.page.screenshot({ path: join(SCREENSHOTS, "formats-opencode-db-other-1440-light.png") });
    expect(foreignRequests(opened.requests, harness.origin)).toEqual([]);
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  });

  it("an OpenCode database chosen with its -wal file: the writes SQLite had not checkpointed are there", async () => {
    // Written by the real SQLite while its connection was open (scripts/compose-wal-pair.ts): one session checkpointed, one added and one renamed in the log.
    const pair = join(import.meta.dirname, "../composed/opencode-wal");
    const opened = await openApp(harness);
    await opened.page.getByTestId("file-input").setInputFiles([join(pair, "opencode.db"), join(pair, "opencode.db-wal")]);
    const picker = opened.page.getByTestId("database-session-select");
    await picker.waitFor({ timeout: 30_000 });
    expect(await picker.locator("option").allTextContents()).toEqual([expect.stringContaining("older, renamed"), expect.stringContaining("newer")]);
    await opened.page.getByText(/1 warning while reading/).click();
    await opened.page
      .locator(".warnings li")
      .getByText(/this database holds 2 sessions; showing "older, renamed"/)
      .waitFor();
    expect(await opened.page.getByText(/WAL mode/).count()).toBe(0);
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  });

  it("an OpenCode database in a folder: the library lists each of its sessions, and a row opens that session", async () => {
    const folder = join(temp, "opencode-share", "opencode");
    mkdirSync(folder, { recursive: true });
    const pair = join(import.meta.dirname, "../composed/opencode-wal");
    for (const name of ["opencode.db", "opencode.db-wal"]) writeFileSync(join(folder, name), readFileSync(join(pair, name)));
    writeFileSync(join(folder, "opencode.db-shm"), new Uint8Array(32768));
    const opened = await openApp(harness);
    await opened.page.getByTestId("folder-input").setInputFiles(dirname(folder));
    await opened.page.locator("[data-testid=library-progress]", { hasText: "· done" }).waitFor({ timeout: 60_000 });
    const rows = opened.page.getByTestId("library-row");
    expect((await rows.evaluateAll((elements) => elements.map((el) => el.getAttribute("data-path")))).sort()).toEqual([
      "opencode-share/opencode/opencode.db#ses_a",
      "opencode-share/opencode/opencode.db#ses_b",
    ]);
    // The progress line counts the database's sessions, as the table does; the -shm is skipped with its reason.
    expect(await opened.page.getByTestId("library-progress").textContent()).toContain("2 of 2 sessions");
    await expect.poll(() => opened.page.getByTestId("library-skipped").textContent()).toContain("shared-memory index");
    await opened.page.screenshot({ path: join(SCREENSHOTS, "library-opencode-db-1440-light.png") });
    await rows.filter({ hasText: "newer" }).click();
    const picker = opened.page.getByTestId("database-session-select");
    await picker.waitFor({ timeout: 30_000 });
    await expect.poll(() => picker.inputValue()).toBe("ses_b");
    // Opened with its -wal: no word of WAL mode (the session itself is only in the log).
    expect(await opened.page.getByText(/WAL mode/).count()).toBe(0);
    // Opened again, unchanged: both sessions come from the cache, counted as two.
    await opened.page.getByTestId("folder-input").setInputFiles(dirname(folder));
    await opened.page.locator("[data-testid=library-progress]", { hasText: "2 unchanged, from the cache" }).waitFor({ timeout: 60_000 });
    await opened.page.locator("[data-testid=library-progress]", { hasText: "· done" }).waitFor({ timeout: 60_000 });
    expect(await opened.page.getByTestId("library-progress").textContent()).toContain("2 of 2 sessions");
    expect(await opened.page.getByTestId("library-row").count()).toBe(2);
    await opened.page.setViewportSize({ width: 1024, height: 768 });
    await opened.page.emulateMedia({ colorScheme: "dark" });
    await opened.page.screenshot({ path: join(SCREENSHOTS, "library-opencode-db-1024-dark.png") });
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  });

  it("an Aider chat history: its own format, each run a branch, and the timeline says the format records no compactions", async () => {
    const dir = join(temp, "aider");
    mkdirSync(dir, { recursive: true });
    const path = join(dir, ".aider.chat.history.md");
    writeFileSync(path, aiderHistory());
    const expected = cliFigures(path);
    expect(expected).toEqual({ format: "aider", compactions: 0 });
    const opened = await openApp(harness);
    const { page } = opened;
    await page.getByTestId("file-input").setInputFiles(path);
    await expectOnScreen(page, expected);
    await page.getByTestId("compaction-timeline").locator("strong", { hasText: "this file cannot show them" }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("leaf-select").locator("option").count()).toBe(2);
    await page.screenshot({ path: join(SCREENSHOTS, "formats-aider-1440-light.png") });
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  });

  it("a Cursor agent transcript: its own format, and the timeline says the format records no compactions", async () => {
    const dir = join(temp, "cursor/agent-transcripts/e13f");
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "e13f.jsonl");
    writeFileSync(path, cursorTranscript());
    expect(cliFigures(path)).toEqual({ format: "cursor", compactions: 0 });
    const opened = await openApp(harness);
    await opened.page.getByTestId("file-input").setInputFiles(path);
    await expectOnScreen(opened.page, { format: "cursor", compactions: 0 });
    await opened.page.getByTestId("compaction-timeline").getByText("Cursor's agent transcripts record the messages only", { exact: false }).waitFor({ timeout: 30_000 });
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  });

  it("a Cline UI log alone (ui_messages.json without its history): its own format, what it is not, and the library lists it", async () => {
    const root = join(temp, "cline-ui-log");
    const path = join(root, "tasks/1760000000000/ui_messages.json");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(clineUiLog()));
    expect(cliFigures(path)).toEqual({ format: "cline", compactions: 0 });
    const opened = await openApp(harness);
    const { page } = opened;
    await page.getByTestId("file-input").setInputFiles(path);
    await expectOnScreen(page, { format: "cline", compactions: 0 });
    await page.getByTestId("compaction-timeline").getByText("This is a Cline UI log read without its api_conversation_history.json", { exact: false }).waitFor({ timeout: 30_000 });
    for (const [width, scheme] of [
      [1440, "light"],
      [1440, "dark"],
      [1024, "light"],
      [1024, "dark"],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(SCREENSHOTS, `formats-cline-ui-log-${width}-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.getByTestId("folder-input").setInputFiles(root);
    const row = page.locator("[data-testid=library-row]:not([data-pending])");
    await row.first().waitFor({ timeout: 60_000 });
    expect(await page.getByTestId("library-row").count()).toBe(1);
    await expect(row.first().textContent()).resolves.toMatch(/cline/i);
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  });

  it("a Cline task folder through the folder input: one library row, opened on its compaction", async () => {
    const root = join(temp, "cline-folder");
    for (const file of clineTask()) {
      const path = join(root, file.name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.bytes);
    }
    const task = join(root, "tasks/1700000000000");
    const expected = cliFigures(task);
    expect(expected.format).toBe("cline");
    const opened = await openApp(harness);
    const { page } = opened;
    await page.getByTestId("folder-input").setInputFiles(root);
    const row = page.locator("[data-testid=library-row]:not([data-pending])");
    await row.first().waitFor({ timeout: 60_000 });
    expect(await page.getByTestId("library-row").count()).toBe(1);
    await row.first().click();
    await expectOnScreen(page, expected);
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  });
});
