/**
 * `npm run bench` runs end to end (on a small generated session, one round)
 * and prints its table: the README's figures come from it, so it must not rot.
 * No timing is asserted; the bench itself checks that its contract minimum
 * produced exactly the checkpoint's digests, and fails otherwise.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../helpers/cli.ts";
import { describeWithFixtures } from "../helpers/fixtures.ts";

// Its first row is the largest real fixture: skipped, with the command, where the fixtures are absent.
describeWithFixtures("npm run bench", () => {
  it("prints a row per input with every ratio", () => {
    const result = spawnSync(
      process.execPath,
      ["--expose-gc", "--import", "tsx", join(ROOT, "bench/run.ts"), "--mb", "2", "--runs", "1", "--shape-mb", "0.2", "--unbroken-mb", "0.2"],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const lines = result.stdout.split("\n");
    const header = lines.find((line) => line.startsWith("| input |"))!;
    expect(header.split("|").map((cell) => cell.trim())).toContain("contract minimum ÷ floor");
    const rows = lines.filter((line) => /^\| (largest fixture|generated Pi session)/.test(line));
    expect(rows.map((row) => row.split("|")[1]!.trim())).toEqual(["largest fixture (Pi, 2.4 MB)", "generated Pi session (2 MB)"]);
    for (const row of rows) {
      const cells = row
        .split("|")
        .slice(2, -1)
        .map((cell) => cell.trim());
      expect(cells).toHaveLength(10);
      for (const cell of cells) expect(cell).toMatch(/^\d+(\.\d+)?×?$/);
    }
    // The tokenizer's cost, as a ratio to the load (issue #17).
    const tokenRows = lines.filter((line) => line.startsWith("| view of "));
    expect(tokenRows).toHaveLength(2);
    for (const row of tokenRows) expect(row.split("|")[4]!.trim()).toMatch(/^\d+\.\d\d×$/);
    // The HTML report as a ratio to the compaction and to the floor (issue #13).
    const reportRows = lines.filter((line) => line.startsWith("| report of "));
    expect(reportRows).toHaveLength(2);
    for (const row of reportRows)
      expect(
        row
          .split("|")
          .slice(2, -1)
          .map((cell) => cell.trim()),
      ).toEqual([
        expect.stringMatching(/^\d+$/),
        expect.stringMatching(/^\d+$/),
        expect.stringMatching(/^\d+\.\d\d×$/),
        expect.stringMatching(/^\d+$/),
        expect.stringMatching(/^\d+\.\d\d×$/),
        expect.stringMatching(/^\d+$/),
        expect.stringMatching(/^\d+\.\d\d×$/),
      ]);
    // Each reader's MB/s next to its floor, the shapes without a real file on generated sessions (issue #18).
    const readerRows = lines.filter((line) => /^\| (claude|codex|copilot|gemini|openai|opencode|pi|cline)\b/.test(line));
    expect(readerRows.map((row) => row.split("|")[1]!.trim())).toEqual(
      expect.arrayContaining(["copilot", "gemini", "opencode", "cline (generated task folder)", "gemini (generated JSONL chat)"]),
    );
    for (const row of readerRows)
      expect(
        row
          .split("|")
          .slice(2, -1)
          .map((cell) => cell.trim()),
      ).toEqual([expect.stringMatching(/^\d+\.\d\d$/), expect.stringMatching(/^\d+\.\d$/), expect.stringMatching(/^\d+\.\d$/), expect.stringMatching(/^\d+\.\d\d×$/)]);
  }, 120_000);
});
