/**
 * The HTML audit report: one self-contained file that opens offline in any
 * browser and requests nothing. Session text is escaped (and in the paged
 * side-by-side view set as textContent); the page carries its own
 * Content-Security-Policy allowing only its own inline script (by hash) and
 * styles.
 */
import { readerHeading, VERDICT_LABELS, verdictSummary } from "../checkride/verdict.ts";
import { sha256HexSync } from "../sha256.ts";
import type { ReportData } from "./model.ts";
import { compactionsHtml } from "./compactions.ts";
import { TOKENIZER_LABEL } from "../tokens.ts";

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function hexToBase64(hex: string): string {
  const bytes = hex.match(/../g)!.map((h) => parseInt(h, 16));
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b = 0, c = 0] = [bytes[i]!, bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | (b << 8) | c;
    out += BASE64[(n >> 18) & 63]! + BASE64[(n >> 12) & 63]! + (i + 1 < bytes.length ? BASE64[(n >> 6) & 63]! : "=") + (i + 2 < bytes.length ? BASE64[n & 63]! : "=");
  }
  return out;
}

export function cspHash(source: string): string {
  return `'sha256-${hexToBase64(sha256HexSync(new TextEncoder().encode(source)))}'`;
}

export const COLORS = ["#2357c6", "#6b3fb3", "#0f766e", "#a15c00", "#b3261e", "#5b6472", "#9aa3af"];

export const STYLE = `
:root { color-scheme: light dark; --bg:#fff; --text:#1d1f23; --dim:#6a6f78; --border:#dcdde0; --ok:#1b7f3b; --okbg:#e3f4e8; --bad:#b3261e; --badbg:#fbe6e4; --warn:#8a5a00; --warnbg:#fff2d6; }
@media (prefers-color-scheme: dark) { :root { --bg:#16181c; --text:#e6e7ea; --dim:#9aa0aa; --border:#33373e; --ok:#6fd68f; --okbg:#16301f; --bad:#ff8a80; --badbg:#3a1c1a; --warn:#f3c46b; --warnbg:#3a2e12; } }
body { margin: 0 auto; max-width: 1400px; padding: 16px 24px 48px; background: var(--bg); color: var(--text); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid var(--border); padding-bottom: 4px; } h3 { font-size: 14px; margin: 16px 0 6px; }
.dim { color: var(--dim); } .mono, code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
table { border-collapse: collapse; font-size: 13px; } th, td { border: 1px solid var(--border); padding: 3px 8px; text-align: left; vertical-align: top; }
.pass { background: var(--okbg); color: var(--ok); } .fail { background: var(--badbg); color: var(--bad); } .inconclusive { background: var(--warnbg); color: var(--warn); } .skipped { color: var(--dim); }
.bar { display: flex; height: 10px; border-radius: 4px; overflow: hidden; background: var(--border); max-width: 600px; }
.legend { font-size: 12px; color: var(--dim); } .swatch { display: inline-block; width: 9px; height: 9px; border-radius: 2px; margin: 0 3px 0 10px; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 16px; }
.card table { width: 100%; } .answer { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 120px; overflow: auto; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; border-bottom: 1px solid var(--border); padding: 6px 0; }
.msg { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 13px; } .msg .head { display: block; } .msg .role { font-weight: 600; font-size: 11px; text-transform: uppercase; color: var(--dim); }
.pager { display: flex; gap: 8px; align-items: center; margin: 8px 0; position: sticky; top: 0; background: var(--bg); padding: 4px 0; }
.notice { background: var(--warnbg); color: var(--warn); padding: 6px 10px; border-radius: 6px; }
`;

export const SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById("rows").textContent);
  var pairs = [];
  var bySource = {};
  data.active.forEach(function (row, i) { if (row.source >= 0) (bySource[row.source] = bySource[row.source] || []).push(row); else pairs.push([null, row]); });
  data.original.forEach(function (row, i) { var act = bySource[i] || [null]; act.forEach(function (a, k) { pairs.push([k === 0 ? row : null, a]); }); });
  var size = 100, page = 0, pages = Math.max(1, Math.ceil(pairs.length / size));
  var list = document.getElementById("pairs"), label = document.getElementById("page");
  function cell(row) {
    var div = document.createElement("div");
    div.className = "msg";
    if (!row) { div.className += " dim"; div.textContent = "(not in this context)"; return div; }
    var head = document.createElement("span");
    head.className = "head";
    var role = document.createElement("span");
    role.className = "role";
    role.textContent = row.role;
    var id = document.createElement("span");
    id.className = "mono dim";
    id.textContent = " · " + row.id;
    head.appendChild(role);
    head.appendChild(id);
    div.appendChild(head);
    div.appendChild(document.createTextNode(row.text));
    return div;
  }
  function render() {
    list.textContent = "";
    pairs.slice(page * size, (page + 1) * size).forEach(function (pair) {
      var div = document.createElement("div");
      div.className = "pair";
      div.appendChild(cell(pair[0]));
      div.appendChild(cell(pair[1]));
      list.appendChild(div);
    });
    label.textContent = "page " + (page + 1) + " of " + pages + " (" + pairs.length + " rows)";
  }
  document.getElementById("prev").addEventListener("click", function () { if (page > 0) { page--; render(); } });
  document.getElementById("next").addEventListener("click", function () { if (page < pages - 1) { page++; render(); } });
  render();
})();
`;

const SCRIPT_ESCAPES: Record<string, string> = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };

/**
 * JSON safe inside a <script> element: no "</script>", no HTML comment openers.
 * One pass over the JSON (five chained replaces were 0.7 s of a 100 MB session's report).
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => SCRIPT_ESCAPES[character]!);
}

/** The report as one string, for tests that read it whole; the CLI and the app write htmlPieces as they come. */
export function renderHtml(report: ReportData): string {
  return [...htmlPieces(report)].join("");
}

/**
 * The report in pieces, for writing straight to a file: the side-by-side
 * rows (every message on the branch and in the active context) are one
 * piece each, so no piece grows with the session; the rest is bounded by the
 * strategies, the probes and OMISSION_LIMIT. A 1 GB session's report is
 * past V8's string limit (about 512 MB) and could not be one string. The
 * pieces joined are the page the one-string template made, byte for byte
 * (test/core/report-html-stream.test.ts).
 */
export function* htmlPieces(report: ReportData): Generator<string> {
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
      ) => `<section class="card"><h3>${e(r.strategy)} <span data-card-score="${e(r.strategy)}">${r.needsModel ? "needs a model" : `${r.passed}/${r.asked}`}</span> <span class="dim">${e(readerHeading(r))}${r.verdicts ? ` · ${e(verdictSummary(r.verdicts))}` : ""}</span></h3>
<table><tr><th>probe</th><th>status</th><th>answer key</th><th>reader's answer</th></tr>
${r.probes
  .map(
    (p) =>
      `<tr data-probe-id="${e(p.id)}" data-status="${p.status}"><td><strong>${e(p.id)}</strong><div class="dim">${e(p.question)}</div></td><td class="${p.status}">${p.status}${p.verdict ? ` <span class="dim">(${e(VERDICT_LABELS[p.verdict])}${p.ms !== undefined ? `, ${(p.ms / 1000).toFixed(1)} s` : ""})</span>` : ""}</td><td>${e(p.expected ?? p.note ?? "")}${p.edited ? ' <span class="dim">(edited by the user)</span>' : ""}</td><td><div class="answer">${e(p.answer)}</div></td></tr>`,
  )
  .join("\n")}
</table></section>`,
    )
    .join("\n");
  const omissions = report.strategies.map(
    (
      s,
    ) => `<details${s.name === report.primary ? " open" : ""}><summary>${e(s.name)}: ${s.omissionCount} payloads moved out${s.omissionCount > s.omissions.length ? ` (first ${s.omissions.length} listed)` : ""}</summary>
<table><tr><th>recovery id</th><th>kind</th><th>bytes</th><th>sha256</th><th>label</th></tr>
${s.omissions.map((o) => `<tr><td class="mono">${e(o.id)}</td><td>${e(o.kind)}</td><td>${o.bytes}</td><td class="mono">${e(o.sha256)}</td><td>${e(o.label)}</td></tr>`).join("\n")}
</table></details>`,
  );

  const recorded = report.compactions ? compactionsHtml(report.compactions, e) : "";

  yield `<!doctype html>
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
`;
  for (const [i, details] of omissions.entries()) yield i === 0 ? details : `\n${details}`;
  yield `
<h2>Side by side: original branch and the ${e(report.primary)} active context</h2>
<div class="pager"><button id="prev" type="button">← previous</button><span id="page"></span><button id="next" type="button">next →</button></div>
<div id="pairs"></div>
<script type="application/json" id="rows">`;
  yield* rowsJson(report);
  yield `</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** `scriptJson({ original, active })`, a row at a time. */
function* rowsJson(report: ReportData): Generator<string> {
  for (const [key, rows] of [
    ["original", report.original],
    ["active", report.active],
  ] as const) {
    yield key === "original" ? `{"${key}":[` : `],"${key}":[`;
    for (const [i, row] of rows.entries()) yield i === 0 ? scriptJson(row) : `,${scriptJson(row)}`;
  }
  yield "]}";
}
