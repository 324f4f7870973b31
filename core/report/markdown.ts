/** The Markdown scorecard: headline figures and the checkride matrix, for a PR description or an issue. */
import { readerHeading, verdictSummary } from "../checkride/verdict.ts";
import type { ReportData } from "./model.ts";
import { COMPACTION_HEADERS, COMPACTION_NOTE, compactionCells } from "./compactions.ts";

const CELL = { pass: "✅", fail: "❌", skipped: "–", inconclusive: "❔" } as const;

/**
 * Text from outside (a file name) as literal Markdown: every ASCII punctuation
 * character backslash-escaped (CommonMark allows it for all of them), so a
 * name cannot open a link, an image, an HTML tag, emphasis or a table cell.
 */
export function mdLiteral(text: string): string {
  return text.replace(/\r?\n|\r/g, " ").replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}

/** Our own names (strategies) in a table cell: only the cell separator and line breaks matter. */
function mdEscape(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

export function renderMarkdown(report: ReportData): string {
  const { source } = report;
  const lines: string[] = [];
  lines.push(`## Compaction audit: ${mdLiteral(source.name)}`);
  lines.push("");
  lines.push(
    `${source.format}${source.formatVersion ? ` ${source.formatVersion}` : ""} · ${source.branchMessages} messages on the branch · ${source.toolCalls} tool calls · sha256 \`${source.sha256.slice(0, 16)}…\``,
  );
  if (report.redaction) lines.push(`\n> Redacted before sharing: ${report.redaction.masked} value(s) masked (${report.redaction.kinds.join(", ")}).`);
  lines.push("");
  lines.push(...recordedCompactions(report));
  lines.push("| strategy | active / original chars | payloads moved out | prose verbatim |");
  lines.push("|---|---|---|---|");
  for (const s of report.strategies) {
    const pct = s.stats.originalChars ? ((s.stats.activeChars / s.stats.originalChars) * 100).toFixed(1) : "0";
    lines.push(
      `| ${mdEscape(s.name)} | ${s.stats.activeChars.toLocaleString("en-US")} / ${s.stats.originalChars.toLocaleString("en-US")} (${pct}%) | ${s.stats.payloads} | ${s.stats.proseVerbatim}/${s.stats.proseSegments} |`,
    );
  }
  const ids = report.checkride[0]?.probes.map((p) => p.id) ?? [];
  lines.push("");
  const first = report.checkride.find((r) => !r.needsModel) ?? report.checkride[0];
  // A model reader's answers are also counted as correct, don't know or confidently wrong.
  const verdicts = report.checkride.some((r) => r.verdicts);
  lines.push(`### Checkride (${first ? mdEscape(readerHeading(first)) : "no strategy"})`);
  lines.push("");
  lines.push(`| strategy | ${ids.join(" | ")} | score |${verdicts ? " verdicts |" : ""}`);
  lines.push(`|---|${ids.map(() => "---").join("|")}|---|${verdicts ? "---|" : ""}`);
  for (const r of report.checkride)
    lines.push(
      `| ${mdEscape(r.strategy)} | ${r.probes.map((p) => CELL[p.status]).join(" | ")} | ${r.needsModel ? "needs a model" : `${r.passed}/${r.asked}`} |${verdicts ? ` ${verdictSummary(r.verdicts) || "–"} |` : ""}`,
    );
  lines.push("");
  if (report.keyEdits) {
    lines.push("**Answer key edited by the user** (scores above use the edited key):");
    for (const s of report.keyEdits.struck) lines.push(`- struck from ${mdEscape(s.probe)}: ${mdEscape(s.fact)}`);
    for (const a of report.keyEdits.added) lines.push(`- added to ${mdEscape(a.probe)}: ${mdEscape(a.text)}`);
    lines.push("");
  }
  lines.push("✅ pass · ❌ fail · – skipped (no ground truth) · ❔ inconclusive. Facts come from the session record, never from a model.");
  return lines.join("\n") + "\n";
}

/** The "Recorded compactions" section, or nothing when the report carries no audit. */
function recordedCompactions(report: ReportData): string[] {
  const rows = report.compactions;
  if (!rows) return [];
  const lines = ["### Recorded compactions", ""];
  if (rows.length === 0) lines.push("No compaction is recorded on this branch.");
  else {
    lines.push(`| ${COMPACTION_HEADERS.join(" | ")} |`);
    lines.push(`|${COMPACTION_HEADERS.map(() => "---").join("|")}|`);
    for (const row of rows) lines.push(`| ${compactionCells(row).map(mdEscape).join(" | ")} |`);
    lines.push("");
    lines.push(COMPACTION_NOTE);
  }
  lines.push("");
  return lines;
}
