/** The report's and the scorecard's "Recorded compactions" table: the same rows as `audit`. */
import { expect, it } from "vitest";
import { auditSession } from "../../core/audit/session.ts";
import { compactionRow } from "../../core/audit/rows.ts";
import { renderHtml } from "../../core/report/html.ts";
import { renderMarkdown } from "../../core/report/markdown.ts";
import { buildReport } from "../../core/report/model.ts";
import { loadSession } from "../../core/session.ts";
import { readFixture, describeWithFixtures } from "../helpers/fixtures.ts";

const SOURCE = { name: "x.jsonl", bytes: 1, sha256: "a".repeat(64) };

describeWithFixtures("Recorded compactions in the report", () => {
  it("carries the audit's rows and shows one table row per compaction, in HTML and in Markdown", async () => {
    const session = loadSession(readFixture("pi/badlogic__pi-mono__before-compaction.jsonl"));
    const report = await buildReport(session, SOURCE, { strategies: ["transparent"] });
    const audit = await auditSession(session);
    expect(report.compactions!.map(({ size: _size, timestamp: _timestamp, ...row }) => row)).toEqual(audit.compactions.map(compactionRow));

    const html = renderHtml(report);
    expect(html).toContain("<h2>Recorded compactions</h2>");
    expect(html.match(/<tr data-compaction-index="\d+">/g)).toHaveLength(2);
    expect(html).toContain('<tr data-compaction-index="1"><td>#1</td><td>360</td><td>pi-compaction</td><td>–</td><td>175,004 → –</td>');

    const md = renderMarkdown(report);
    const table = md.split("### Recorded compactions")[1]!.split("\n\n")[1]!.split("\n");
    expect(table).toHaveLength(4); // header, rule, two rows
    expect(table[2]).toMatch(/^\| #1 \| 360 \| pi-compaction \| – \| 175,004 → – \| 354 → 67 \|/);
    expect(table[3]).toMatch(/^\| #2 \| 629 \| pi-compaction \| – \| 185,014 → – \|/);
  });

  it("says so when the branch records no compaction", async () => {
    const report = await buildReport(loadSession(readFixture("composed/openai-chat.json")), SOURCE, { strategies: ["transparent"] });
    expect(report.compactions).toEqual([]);
    expect(renderHtml(report)).toContain("No compaction is recorded on this branch.");
    expect(renderMarkdown(report)).toContain("### Recorded compactions\n\nNo compaction is recorded on this branch.");
  });
});

describeWithFixtures("a report built without the audit", () => {
  it("leaves the section out instead of claiming no compaction", async () => {
    const report = await buildReport(loadSession(readFixture("composed/pi-v3-tree.jsonl")), SOURCE, { strategies: ["transparent"] });
    const { compactions: _compactions, ...withoutAudit } = report;
    expect(renderHtml(withoutAudit)).not.toContain("Recorded compactions");
    expect(renderMarkdown(withoutAudit)).not.toContain("Recorded compactions");
    expect(renderHtml(report)).toContain("<h2>Recorded compactions</h2>");
  });
});
