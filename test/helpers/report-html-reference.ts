/**
 * The HTML report as core/report/html.ts rendered it up to 653f455: one
 * template string, which past V8's string limit (about 512 MB) cannot be
 * made. Kept as the oracle for the streamed report (core/report/html.ts
 * `htmlPieces`): for every session it must write these bytes exactly. When
 * the report's markup is changed on purpose, change it here the same way.
 */
import { COLORS, SCRIPT, STYLE, cspHash, escapeHtml, scriptJson } from "../../core/report/html.ts";
import type { ReportData } from "../../core/report/model.ts";
import { compactionsHtml } from "../../core/report/compactions.ts";
import { TOKENIZER_LABEL } from "../../core/tokens.ts";

export function referenceHtml(report: ReportData): string {
  const e = escapeHtml;
  const { source } = report;
  const csp = `default-src 'none'; script-src ${cspHash(SCRIPT)}; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`;
  const ids = report.checkride[0]?.probes.map((p) => p.id) ?? [];
  const strategyRows = report.strategies
    .map((s) => {
      const pct = s.stats.originalChars ? ((s.stats.activeChars / s.stats.originalChars) * 100).toFixed(1) : "0";
      const total = s.composition.reduce((sum, p) => sum + p.tokens, 0) || 1;
      const bar = s.composition
        .map(
          (p, i) =>
            `<div style="flex-grow:${p.tokens};background:${COLORS[i % COLORS.length]}" title="${e(p.label)}: ${p.tokens.toLocaleString("en-US")} ${e(TOKENIZER_LABEL)}"></div>`,
        )
        .join("");
      const legend = s.composition
        .map((p, i) => `<span class="swatch" style="background:${COLORS[i % COLORS.length]}"></span>${e(p.label)} ${Math.round((p.tokens / total) * 100)}%`)
        .join("");
      return `<tr><th>${e(s.name)}<div class="dim">${e(s.label)}</div></th><td>${s.stats.originalChars.toLocaleString("en-US")}</td><td>${s.stats.activeChars.toLocaleString("en-US")} (${pct}%)</td><td>${s.stats.payloads}</td><td>${s.stats.proseVerbatim}/${s.stats.proseSegments}</td><td><div class="bar">${bar}</div><div class="legend">${legend}</div></td></tr>`;
    })
    .join("\n");
  const matrix = report.checkride
    .map(
      (r) =>
        `<tr><th>${e(r.strategy)}</th>${r.probes.map((p) => `<td class="${p.status}" title="${e(p.id)}: ${p.status}">${p.status === "pass" ? "✓" : p.status === "fail" ? "✗" : p.status === "inconclusive" ? "?" : "–"}</td>`).join("")}<td data-score="${e(r.strategy)}">${r.needsModel ? "needs a model" : `${r.passed}/${r.asked}`}</td></tr>`,
    )
    .join("\n");
  const cards = report.checkride
    .map(
      (
        r,
      ) => `<section class="card"><h3>${e(r.strategy)} <span data-card-score="${e(r.strategy)}">${r.needsModel ? "needs a model" : `${r.passed}/${r.asked}`}</span> <span class="dim">facts present in context (literal reader)</span></h3>
<table><tr><th>probe</th><th>status</th><th>answer key</th><th>reader's answer</th></tr>
${r.probes
  .map(
    (p) =>
      `<tr data-probe-id="${e(p.id)}" data-status="${p.status}"><td><strong>${e(p.id)}</strong><div class="dim">${e(p.question)}</div></td><td class="${p.status}">${p.status}</td><td>${e(p.expected ?? p.note ?? "")}${p.edited ? ' <span class="dim">(edited by the user)</span>' : ""}</td><td><div class="answer">${e(p.answer)}</div></td></tr>`,
  )
  .join("\n")}
</table></section>`,
    )
    .join("\n");
  const omissions = report.strategies
    .map(
      (
        s,
      ) => `<details${s.name === report.primary ? " open" : ""}><summary>${e(s.name)}: ${s.omissionCount} payloads moved out${s.omissionCount > s.omissions.length ? ` (first ${s.omissions.length} listed)` : ""}</summary>
<table><tr><th>recovery id</th><th>kind</th><th>bytes</th><th>sha256</th><th>label</th></tr>
${s.omissions.map((o) => `<tr><td class="mono">${e(o.id)}</td><td>${e(o.kind)}</td><td>${o.bytes}</td><td class="mono">${e(o.sha256)}</td><td>${e(o.label)}</td></tr>`).join("\n")}
</table></details>`,
    )
    .join("\n");

  const recorded = report.compactions ? compactionsHtml(report.compactions, e) : "";

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${e(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Compaction audit: ${e(source.name)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Compaction audit: ${e(source.name)}</h1>
<p class="dim">${e(source.format)}${source.formatVersion ? ` ${e(source.formatVersion)}` : ""} · ${source.bytes.toLocaleString("en-US")} bytes · sha256 <span class="mono">${e(source.sha256)}</span><br>
branch to leaf <span class="mono">${e(source.leafId ?? "(none)")}</span>: ${source.branchMessages} messages · ${source.toolCalls} tool calls · ${source.warnings} reading warnings · made by Session Inspector; this file requests nothing and runs no code but its own page script.</p>
${report.redaction ? `<p class="notice">Redacted before sharing: ${report.redaction.masked} value(s) masked (${e(report.redaction.kinds.join(", "))}). Masked values read <code>[REDACTED kind-n]</code>, the same placeholder everywhere.</p>` : ""}
${recorded ? `<h2>Recorded compactions</h2>\n${recorded}\n` : ""}<h2>The compactions compared</h2>
<table><tr><th>strategy</th><th>original chars</th><th>active chars</th><th>payloads moved out</th><th>prose verbatim</th><th>what the active context is made of</th></tr>
${strategyRows}
</table>
<h2>Checkride</h2>
<p class="dim">A reader holding only the active context is asked fixed questions; the answer key comes from the session record (tool calls, exit codes, user messages), never from a model. The literal reader quotes what is present: its score says which facts are in the context, not what a model would recall. A probe without ground truth is skipped.</p>
${report.keyEdits ? `<p class="notice" data-key-edits>Answer key edited by the user (the scores use the edited key): ${[...report.keyEdits.struck.map((x) => `struck from ${e(x.probe)}: “${e(x.fact)}”`), ...report.keyEdits.added.map((x) => `added to ${e(x.probe)}: “${e(x.text)}”`)].join("; ")}.</p>\n` : ""}<table class="matrix"><tr><th>strategy</th>${ids.map((id) => `<th>${e(id)}</th>`).join("")}<th>score</th></tr>
${matrix}
</table>
<div class="cards">${cards}</div>
<h2>What was moved out</h2>
${omissions}
<h2>Side by side: original branch and the ${e(report.primary)} active context</h2>
<div class="pager"><button id="prev" type="button">← previous</button><span id="page"></span><button id="next" type="button">next →</button></div>
<div id="pairs"></div>
<script type="application/json" id="rows">${scriptJson({ original: report.original, active: report.active })}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
