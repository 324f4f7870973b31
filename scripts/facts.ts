/**
 * `npm run facts`: per-probe precision and recall of the checkride's answer
 * key against the hand-labelled real sessions (test/labels), per fixture and
 * in total: the blind set first (labelled without the extractor's code,
 * issue #27; the project's measure), then the older set its authors tuned
 * to (kept as regression tests).
 */
import { precision, recall, TALLIES } from "../core/checkride/label-score.ts";
import { scoreLabelledSet } from "../test/helpers/labelled-set.ts";

const cell = (right: number, given: number) => `${right}/${given}`.padStart(7);

for (const set of ["blind", "tuned"] as const) {
  const { fixtures, total } = scoreLabelledSet(set);
  console.log(
    set === "blind"
      ? "The blind set (test/labels/blind, labelled without the extractor's code):\n"
      : "\nThe older set (test/labels, labelled by the extractor's authors; regression tests):\n",
  );
  const header = ["fixture".padEnd(58), ...TALLIES.map((p) => `${p} P`.padStart(10) + `${p} R`.padStart(10))].join(" ");
  console.log(header);
  for (const fixture of fixtures) {
    const name = fixture.fixture.slice(0, 57).padEnd(58);
    if (fixture.pending) {
      console.log(`${name} pending: ${fixture.pending}`);
      continue;
    }
    const cells = TALLIES.map((p) => {
      const t = fixture.scores[p];
      return cell(t.right, t.given).padStart(10) + cell(t.found, t.expected).padStart(10);
    });
    console.log([name, ...cells].join(" ") + (fixture.stale.length ? `  STALE LABELS: ${fixture.stale.join(", ")}` : ""));
  }
  console.log("");
  console.log("probe      precision  recall   (right/given, found/expected; candidates: share that are rules, rules found graded or as one)");
  for (const p of TALLIES) {
    const t = total[p];
    console.log(`${p.padEnd(10)} ${precision(t).toFixed(2).padStart(9)} ${recall(t).toFixed(2).padStart(7)}   (${t.right}/${t.given}, ${t.found}/${t.expected})`);
  }
}
