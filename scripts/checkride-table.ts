/**
 * `npm run matrix`: the checkride (literal reader: facts present in context)
 * of every strategy on every shared fixture, as Markdown (the README's table).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { checkrideSession } from "../core/evaluate/evaluate.ts";
import { loadSession } from "../core/session.ts";

// The real sessions: $SESSION_FIXTURES, or ../shared/fixtures/ (npm run fixtures fetches them).
const root = process.env.SESSION_FIXTURES ? resolve(process.env.SESSION_FIXTURES) : resolve(import.meta.dirname, "../../shared/fixtures");
let header: string[] | undefined;
const rows: string[] = [];
for (const dir of readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort()) {
  for (const name of readdirSync(join(root, dir))
    .filter((f) => /\.jsonl?$/.test(f))
    .sort()) {
    const results = await checkrideSession(loadSession(readFileSync(join(root, dir, name))), { strategies: "all", checkride: { reader: "literal" } });
    header ??= results.map((r) => r.strategy);
    const cell = (r: (typeof results)[number]) => {
      const failed = r.probes.filter((p) => p.status === "fail").map((p) => p.id);
      return `${r.passed}/${r.asked}${failed.length ? ` (✗ ${failed.join(", ")})` : ""}`;
    };
    rows.push(`| ${dir}/${name} | ${results.map(cell).join(" | ")} |`);
  }
}
console.log(`| fixture | ${header!.join(" | ")} |`);
console.log(`|---|${header!.map(() => "---").join("|")}|`);
for (const row of rows) console.log(row);
