/**
 * `npm run sizes`: active vs original size of the transparent compaction on
 * every shared fixture, as a Markdown table (the one in the README).
 */
import { readFileSync } from "node:fs";
import { compactSession } from "../core/compact.ts";
import { loadSession } from "../core/session.ts";
import { fixtureFiles } from "./fixture-files.ts";

const rows: string[] = [];
for (const { dir, name, path } of fixtureFiles()) {
  const bytes = readFileSync(path);
  const session = loadSession(bytes);
  const { stats } = await compactSession(session, { name, bytes: bytes.length, sha256: "" }, { strategy: "transparent" });
  const pct = ((stats.activeChars / stats.originalChars) * 100).toFixed(1);
  rows.push(
    `| ${dir}/${name} | ${session.format} | ${stats.originalChars.toLocaleString("en-US")} | ${stats.activeChars.toLocaleString("en-US")} | ${pct}% | ${stats.payloads} | ${stats.proseVerbatim}/${stats.proseSegments} |`,
  );
}
console.log("| fixture | format | original chars | active chars | active/original | payloads moved out | prose verbatim |");
console.log("|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
