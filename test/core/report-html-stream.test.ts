/**
 * The HTML report is written in pieces, never as one string (a session of
 * 1 GB makes a report past V8's string limit), and the pieces are byte for
 * byte the report the one-string renderer made (test/helpers/report-html-reference.ts),
 * on every fixture, through the CLI's own `report --output`.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { expect, it, vi } from "vitest";
import { parseArgs } from "../../core/cli/flags.ts";
import { runReport } from "../../core/cli/commands.ts";
import { scanMessages } from "../../core/redact.ts";
import { buildReport } from "../../core/report/model.ts";
import { loadSession } from "../../core/session.ts";
import { STRATEGIES } from "../../core/strategies/index.ts";
import { allFixtures, describeWithFixtures, fixturePath, readFixture } from "../helpers/fixtures.ts";
import { referenceHtml } from "../helpers/report-html-reference.ts";
import { generatePiSession } from "../../bench/generate.ts";
import { htmlPieces } from "../../core/report/html.ts";

const temp = mkdtempSync(join(tmpdir(), "si-report-"));
const ALL = STRATEGIES.map((s) => s.name);

/** `report FILE --output OUT [flags]` run in this process; the scan's summary on stderr is not shown. */
async function reportFile(fixture: string, flags: string[]): Promise<string> {
  const output = join(temp, `${basename(fixture)}.html`);
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    expect(await runReport(parseArgs(["report", fixturePath(fixture), ...flags, "--output", output]))).toBe(0);
  } finally {
    vi.restoreAllMocks();
  }
  return readFileSync(output, "utf8");
}

function sourceOf(fixture: string, bytes: Uint8Array) {
  return { name: basename(fixture), bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
}

describeWithFixtures("report --output: the one-string renderer's bytes", () => {
  it.each(allFixtures())("%s", async (fixture) => {
    const bytes = readFixture(fixture);
    const written = await reportFile(fixture, ["--no-redact"]);
    const expected = referenceHtml(await buildReport(loadSession(bytes), sourceOf(fixture, bytes), { strategies: ALL, redact: [] }));
    expect(written).toBe(`${expected}\n`);
  });

  it.each(["claude/entireio__cli__d0-161e0df1cb.jsonl", "pi/badlogic__pi-mono__before-compaction.jsonl"])("%s, redacted (the default)", async (fixture) => {
    const bytes = readFixture(fixture);
    const session = loadSession(bytes);
    const findings = scanMessages(session.branch(session.defaultLeafId));
    const written = await reportFile(fixture, []);
    expect(written).toBe(`${referenceHtml(await buildReport(session, sourceOf(fixture, bytes), { strategies: ALL, redact: findings }))}\n`);
  });
});

it("no piece grows with the session: a 3 MB session's report comes in pieces of a few KB", async () => {
  const session = loadSession(generatePiSession(3e6));
  const report = await buildReport(session, { name: "generated.jsonl", bytes: 3e6, sha256: "0".repeat(64) }, { strategies: ["transparent"] });
  const pieces = [...htmlPieces(report)];
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const longest = Math.max(...pieces.map((piece) => piece.length));
  expect(pieces.join("")).toBe(referenceHtml(report));
  expect(total).toBeGreaterThan(2e6);
  // The longest is the page's head (style, tables of strategies and probes, the omissions of one strategy capped at 2,000 rows), not the rows.
  expect(longest).toBeLessThan(total / 4);
  // Every side-by-side row is its own piece: at most ROW_TEXT_LIMIT (4,000) characters of text, escaped.
  const rowPieces = pieces.filter((piece) => /^,?\{"id":/.test(piece));
  expect(rowPieces.length).toBe(report.original.length + report.active.length);
  expect(Math.max(...rowPieces.map((piece) => piece.length))).toBeLessThan(4000 * 2);
});
