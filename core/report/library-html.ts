/**
 * The library's HTML report: one self-contained page for a folder of
 * sessions (the per-agent summary, then every session, most facts dropped
 * first, each with its recorded compactions; then what was skipped). Derived
 * figures only: no message text, and the dropped facts' own texts (paths,
 * commands, a user's words) only when asked for, since the page may be
 * shared beyond the person whose sessions they are. The same rows as
 * `audit <folder> --json` and the app's library table, the same per-agent
 * summary (core/library/summary.ts): the CLI and the app both render it here.
 */
import { kindLabel } from "../audit/kind-labels.ts";
import type { LibraryCompactionRow, LibrarySessionRow, LibrarySkippedRow } from "../library/rows.ts";
import { byFactsDropped, compareText, summarizeByAgent } from "../library/summary.ts";
import { formatBytes, formatCount } from "../units.ts";
import { escapeHtml as e, STYLE } from "./html.ts";

export interface LibraryReportInput {
  /** The folder's name, as the user chose it. */
  folder: string;
  sessions: readonly LibrarySessionRow[];
  compactions: readonly LibraryCompactionRow[];
  skipped: readonly LibrarySkippedRow[];
  /** Put each dropped fact's text in the page (off by default). */
  withFacts: boolean;
}

const PAGE_STYLE = `${STYLE}
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; } .nowrap { white-space: nowrap; } .bad { color: var(--bad); font-weight: 600; }
tr.compaction td { font-size: 12px; background: color-mix(in srgb, var(--border) 18%, transparent); } tr.compaction td:first-child { padding-left: 22px; }
.facts { margin: 2px 0 0; padding-left: 16px; } .path { overflow-wrap: anywhere; }
`;

const percent = (share: number | null) => (share === null ? "—" : `${Math.round(share * 100)}%`);
const count = (value: number | null) => (value === null ? "–" : formatCount(value));

function keptText(facts: { asked: number; recorded: number; transparent: number }): string {
  return facts.asked === 0 ? "no facts to check" : `${facts.recorded}/${facts.asked} (transparent ${facts.transparent}/${facts.asked})`;
}

function sessionRow(row: LibrarySessionRow): string {
  const worst = row.worstCompaction ? `#${row.worstCompaction.index}: ${keptText(row.worstCompaction)}` : "—";
  const tokens = `${count(row.tokens)}<div class="dim">${e(row.tokenizer)}</div>`;
  return `<tr><td>${e(row.agent)}</td><td class="path">${e(row.project ?? "—")}<div class="dim">${e(row.path)}</div></td><td class="nowrap">${e(row.date.slice(0, 10))}</td><td class="num">${formatBytes(row.bytes)}</td><td class="num">${count(row.messages)}</td><td class="num">${tokens}</td><td class="num">${row.compactions}</td><td>${worst}</td><td class="num${row.factsDropped ? " bad" : ""}">${row.factsDropped}</td></tr>`;
}

function compactionRow(row: LibraryCompactionRow, withFacts: boolean): string {
  const fileTokens = row.tokensBefore === null && row.tokensAfter === null ? "the file states none" : `${count(row.tokensBefore)} → ${count(row.tokensAfter)}`;
  const dropped = row.dropped;
  const facts =
    withFacts && dropped.facts.length
      ? `<ul class="facts">${dropped.facts.map((fact) => `<li><span class="dim">${e(fact.probe)}:</span> ${e(fact.fact)}</li>`).join("")}</ul>`
      : "";
  return (
    `<tr class="compaction"><td colspan="2">#${row.index} ${e(kindLabel(row.compactionKind))}${row.trigger ? ` (${row.trigger})` : ""} <span class="dim">line ${row.line}</span></td>` +
    `<td colspan="2">file's tokens ${fileTokens}</td><td class="num">${row.messagesBefore} → ${row.messagesAfter}</td><td colspan="3">facts present after it: ${keptText(row.facts)}` +
    `<div class="dim">dropped: ${dropped.facts.length} fact(s), ${dropped.humanMessages.length} user message(s), ${dropped.toolOutputs.length} tool output(s)</div>${facts}</td>` +
    `<td class="num${dropped.facts.length ? " bad" : ""}">${dropped.facts.length}</td></tr>`
  );
}

export function libraryReportHtml(input: LibraryReportInput): string {
  const csp = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";
  const byPath = new Map<string, LibraryCompactionRow[]>();
  for (const row of input.compactions) {
    const list = byPath.get(row.path);
    if (list) list.push(row);
    else byPath.set(row.path, [row]);
  }
  const agents = summarizeByAgent(input.sessions, input.compactions)
    .map(
      (agent) =>
        `<tr><th>${e(agent.agent)}</th><td class="num">${agent.sessions}</td><td class="num">${agent.compactions}</td><td class="num">${percent(agent.medianKeptRecorded)}</td><td class="num">${percent(agent.medianKeptTransparent)}</td><td class="num${agent.factsDropped ? " bad" : ""}">${agent.factsDropped}</td></tr>`,
    )
    .join("\n");
  const sessions = [...input.sessions]
    .sort(byFactsDropped)
    .map((row) => [sessionRow(row), ...(byPath.get(row.path) ?? []).map((c) => compactionRow(c, input.withFacts))].join("\n"))
    .join("\n");
  // By path, as `audit <folder> --json` orders them.
  const skipped = [...input.skipped].sort((a, b) => compareText(a.path, b.path));
  // A database's size once, however many of its sessions are rows.
  const bytes = [...new Map(input.sessions.map((row) => [row.database?.path ?? row.path, row.bytes])).values()].reduce((sum, size) => sum + size, 0);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Session library: ${e(input.folder)}</title><style>${PAGE_STYLE}</style></head>
<body>
<h1>Session library: ${e(input.folder)}</h1>
<p class="dim">${formatCount(input.sessions.length)} sessions (${formatBytes(bytes)}), ${formatCount(input.compactions.length)} recorded compactions, ${formatCount(skipped.length)} files skipped. Facts: <strong>facts present in context</strong> (the literal reader: the answer key's facts looked up in what the agent kept, never a model's recall), known at each compaction's moment, against what transparent compaction would have kept at the same moment. Made by Session Inspector on this machine; ${input.withFacts ? "the dropped facts' texts are included" : "no session text, and no fact text (ask for it with --with-facts)"}.</p>
<h2>By agent</h2>
<table><thead><tr><th>Agent</th><th>Sessions</th><th>Compactions</th><th>Median kept: agent's compaction</th><th>Median kept: transparent</th><th>Facts dropped</th></tr></thead>
<tbody>
${agents}
</tbody></table>
<p class="dim">Medians over the compactions that asked at least one fact; "—" where an agent's sessions record none.</p>
<h2>Sessions, most facts dropped first</h2>
<table><thead><tr><th>Agent</th><th>Project and file</th><th>Date</th><th>Size</th><th>Messages</th><th>Context tokens now</th><th>Compactions</th><th>Worst compaction: facts present</th><th>Facts dropped</th></tr></thead>
<tbody>
${sessions}
</tbody></table>
${skipped.length ? `<h2>Skipped</h2>\n<table><thead><tr><th>File</th><th>Why</th></tr></thead><tbody>\n${skipped.map((row) => `<tr><td class="path">${e(row.path)}</td><td>${e(row.reason)}</td></tr>`).join("\n")}\n</tbody></table>` : ""}
</body></html>`;
}
