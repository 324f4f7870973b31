/**
 * `npm run tokens`: on every shared fixture with recorded usage, the file's
 * own input figure at the last turn (contextTokens) beside the model-view
 * count (core/model-view.ts, o200k) of the recorded context the model read on
 * that turn, as a Markdown table (the one in docs/tokens.md). The first turn
 * is shown too: there the transcript holds almost nothing, so its difference
 * is close to what the transcript never shows (system prompt, tool
 * definitions), the floor of every later difference.
 */
import { readFileSync } from "node:fs";
import type { Session } from "../core/model.ts";
import { loadSession } from "../core/session.ts";
import { fixtureFiles } from "./fixture-files.ts";
import { TOKENIZER_LABEL, loadTokenizer } from "../core/tokens.ts";
import { usageAgainstView } from "../core/usage/summary.ts";

await loadTokenizer();
const fmt = (n: number) => n.toLocaleString("en-US");

const rows: string[] = [];
const skipped: string[] = [];
for (const { dir, name, path } of fixtureFiles()) {
  if (dir === "composed") continue; // composed files carry made-up usage figures
  let session: Session;
  try {
    session = loadSession(readFileSync(path));
  } catch (error) {
    skipped.push(`${dir}/${name} (not read: ${error instanceof Error ? error.message : error})`);
    continue;
  }
  const { series: usage, last, lastTurnViewTokens: lastView, notInTranscriptAtFirstTurn: firstGap } = usageAgainstView(session, null);
  const first = usage.turns[0];
  if (!first || !last || lastView === null || firstGap === null) {
    skipped.push(`${dir}/${name} (no usage records)`);
    continue;
  }
  rows.push(
    `| ${dir}/${name} | ${session.format} | ${usage.turns.length} | ${fmt(first.contextTokens)} − ${fmt(first.contextTokens - firstGap)} = ${fmt(firstGap)} | ${last.line} | ${fmt(last.contextTokens)} | ${fmt(lastView)} | ${(lastView / last.contextTokens).toFixed(2)} | ${fmt(last.contextTokens - lastView)} | ${usage.contextWindow === null ? "not stated" : fmt(usage.contextWindow)} |`,
  );
}
console.log(`Model-view counts: ${TOKENIZER_LABEL}.\n`);
console.log(
  "| fixture | format | turns | first turn: file − view = not in transcript | last turn line | file's context tokens | model-view tokens | view ÷ file | not in transcript | context window |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
if (skipped.length > 0) console.log(`\nNot in the table: ${skipped.join("; ")}.`);
