/**
 * The "Recorded compactions" table of the HTML report and the Markdown
 * scorecard: one row per compaction the file records, from the same audit
 * (core/audit) the CLI's `audit` prints.
 */
import type { CompactionAudit } from "../audit/moment.ts";
import { compactionRow, type CompactionRow } from "../audit/rows.ts";

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
    `${row.facts.recorded}/${row.facts.asked}`,
    `${row.facts.transparent}/${row.facts.asked} (${n(row.size.transparent)})`,
    String(row.dropped.facts.length),
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
  "size before → after (chars)",
  "facts kept",
  "transparent would keep (size)",
  "facts dropped",
  "user messages dropped or summarised",
  "tool outputs dropped",
];

export const COMPACTION_NOTE =
  "Facts are those known at each compaction (the branch up to it, never later messages), read by the literal reader: facts present in context. Token figures are the file's own; – where it states none.";
