/**
 * `npm run sizes`: active vs original size of the transparent compaction on
 * every shared fixture, as a Markdown table (the one in the README).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { compactSession } from "../core/compact.ts";
import { loadSession } from "../core/session.ts";

// The real sessions: $SESSION_FIXTURES, or ../shared/fixtures/ (npm run fixtures fetches them).
const root = process.env.SESSION_FIXTURES ? resolve(process.env.SESSION_FIXTURES) : resolve(import.meta.dirname, "../../shared/fixtures");
const rows: string[] = [];
for (const dir of readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort()) {
  for (const name of readdirSync(join(root, dir))
    .filter((f) => /\.jsonl?$/.test(f))
    .sort()) {
    const bytes = readFileSync(join(root, dir, name));
    const session = loadSession(bytes);
    const { stats } = await compactSession(session, { name, bytes: bytes.length, sha256: "" }, { strategy: "transparent" });
    const pct = ((stats.activeChars / stats.originalChars) * 100).toFixed(1);
    rows.push(
      `| ${dir}/${name} | ${session.format} | ${stats.originalChars.toLocaleString("en-US")} | ${stats.activeChars.toLocaleString("en-US")} | ${pct}% | ${stats.payloads} | ${stats.proseVerbatim}/${stats.proseSegments} |`,
    );
  }
}
console.log("| fixture | format | original chars | active chars | active/original | payloads moved out | prose verbatim |");
console.log("|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
