/**
 * `npm run matrix`: the checkride (literal reader: facts present in context)
 * of every strategy on every shared fixture, as Markdown (the README's table).
 */
import { readFileSync } from "node:fs";
import { checkrideSession } from "../core/evaluate/evaluate.ts";
import { loadSession } from "../core/session.ts";
import { fixtureFiles } from "./fixture-files.ts";

let header: string[] | undefined;
const rows: string[] = [];
for (const { dir, name, path } of fixtureFiles()) {
  const results = await checkrideSession(loadSession(readFileSync(path)), { strategies: "all", checkride: { reader: "literal" } });
  header ??= results.map((r) => r.strategy);
  const cell = (r: (typeof results)[number]) => {
    const failed = r.probes.filter((p) => p.status === "fail").map((p) => p.id);
    return `${r.passed}/${r.asked}${failed.length ? ` (✗ ${failed.join(", ")})` : ""}`;
  };
  rows.push(`| ${dir}/${name} | ${results.map(cell).join(" | ")} |`);
}
console.log(`| fixture | ${header!.join(" | ")} |`);
console.log(`|---|${header!.map(() => "---").join("|")}|`);
for (const row of rows) console.log(row);
