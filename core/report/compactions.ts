/**
 * The "Recorded compactions" table of the HTML report and the Markdown
 * scorecard: one row per compaction the file records, from the same audit
 * (core/audit) the CLI's `audit` prints.
 */
import type { CompactionAudit } from "../audit/moment.ts";
import { compactionRow, type CompactionRow } from "../audit/rows.ts";
import { AUDIT_VS_CHECKRIDE, probeName } from "../audit/fact-ledger.ts";

export interface ReportCompaction extends CompactionRow {
  size: CompactionAudit["size"];
  timestamp: string | null;
}

export function reportCompaction(audit: CompactionAudit): ReportCompaction {
  return { ...compactionRow(audit), size: audit.size, timestamp: audit.timestamp };
}

const n = (value: number | null) => (value === null ? "–" : value.toLocaleString("en-US"));

/** The cells both renderings show, as plain text (each renderer escapes them its own way). */
export function compactionCells(row: ReportCompaction): string[] {
  return [
    `#${row.index}`,
    String(row.line),
    row.kind,
    row.trigger ?? "–",
    `${n(row.tokensBefore)} → ${n(row.tokensAfter)}`,
    `${row.messagesBefore} → ${row.messagesAfter}`,
    `${n(row.size.before)} → ${n(row.size.after)}`,
    `${row.facts.kept}/${row.facts.asked}`,
    `${row.facts.transparent}/${row.facts.asked} (${n(row.size.transparent)})`,
    row.facts.goneBefore ? `${row.facts.fellOut} (${row.facts.goneBefore} already gone before)` : String(row.facts.fellOut),
    String(row.dropped.humanMessages.length),
    String(row.dropped.toolOutputs.length),
  ];
}

export const COMPACTION_HEADERS = [
  "#",
  "line",
  "kind",
  "trigger",
  "tokens before → after (the file's)",
  "messages before → after",
  "model view before → after (tokens)",
  "facts kept",
  "transparent would keep (size)",
  "facts that fell out here",
  "user messages dropped or summarised",
  "tool outputs dropped",
];

export const COMPACTION_NOTE = `Facts are those known at each compaction (the branch up to it, never later messages), read by the literal reader: facts present in context; kept + fell out here + already gone before = asked. ${AUDIT_VS_CHECKRIDE} "Tokens (the file's)" are the figures the file itself records (– where it states none); the model-view sizes are counted here with the o200k tokenizer over what the model reads (Claude's own tokenizer differs by a few percent; the system prompt and tool definitions are not in the transcript).`;

/** The HTML section body: the table, then what each compaction dropped (every value escaped with `e`). */
export function compactionsHtml(rows: readonly ReportCompaction[], e: (text: string) => string): string {
  return rows.length === 0
    ? `<p class="dim" id="recorded-compactions">No compaction is recorded on this branch.</p>`
    : `<p class="dim">${e(COMPACTION_NOTE)}</p>
<table id="recorded-compactions"><tr>${COMPACTION_HEADERS.map((h) => `<th>${e(h)}</th>`).join("")}</tr>
${rows
  .map(
    (row) =>
      `<tr data-compaction-index="${row.index}">${compactionCells(row)
        .map((cell) => `<td>${e(cell)}</td>`)
        .join("")}</tr>`,
  )
  .join("\n")}
</table>
${rows
  .map(
    (
      row,
    ) => `<details><summary>#${row.index}: what was dropped (${row.dropped.facts.length} facts, ${row.dropped.humanMessages.length} user messages, ${row.dropped.toolOutputs.length} tool outputs)</summary>
<ul>${row.dropped.facts.map((f) => `<li><strong>${e(probeName(f.probe))}</strong>: ${e(f.missingItems.length > 1 ? f.missingItems.join("; ") : f.fact)}</li>`).join("")}</ul>
${row.dropped.humanMessages.length ? `<p>User messages ${row.dropped.humanMessages.map((m) => `<span class="mono">${e(m.messageId)}</span> (line ${m.line ?? "?"}, ${m.fate})`).join(", ")}</p>` : ""}
${row.dropped.toolOutputs.length ? `<table><tr><th>message</th><th>tool</th><th>fate</th><th>recovery id</th><th>bytes</th><th>sha256</th></tr>${row.dropped.toolOutputs.map((o) => `<tr><td class="mono">${e(o.messageId)}</td><td>${e(o.toolName ?? "")}</td><td>${o.fate}</td><td class="mono">${e(o.recoveryId)}</td><td>${o.bytes}</td><td class="mono">${e(o.sha256)}</td></tr>`).join("")}</table>` : ""}
</details>`,
  )
  .join("\n")}`;
}
