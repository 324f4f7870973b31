/**
 * `npm run facts`: per-probe precision and recall of the checkride's answer
 * key against the hand-labelled real sessions (test/labels), per fixture and
 * in total: the blind set first (labelled without the extractor's code,
 * issue #27; the project's measure), then the older set its authors tuned
 * to (kept as regression tests). A blind set may hold sessions out
 * (`split: "held-out"` in its provenance): those are scored in total only.
 * `--write` also writes the measure set's totals to core/checkride/key-measure.json,
 * which the app's score card shows beside each probe (how far to trust the key).
 * `--dev` leaves the measure set out (nothing of it is scored or printed).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { addScores, emptyScores, precision, recall, TALLIES, type Scores } from "../core/checkride/label-score.ts";
import type { KeyMeasure } from "../core/checkride/key-measure.ts";
import { BLIND_SETS, scoreLabelledSet, type BlindSetName } from "../test/helpers/labelled-set.ts";

const root = resolve(import.meta.dirname, "..");
const cell = (right: number, given: number) => `${right}/${given}`.padStart(7);

/** Sessions of a blind set held out (test/blind-*.provenance.json, `split`): scored in total only, their rows never printed. */
function heldOut(provenance: string): Set<string> {
  const path = join(root, provenance);
  if (!existsSync(path)) return new Set();
  const { files } = JSON.parse(readFileSync(path, "utf8")) as { files: { file: string; split?: string }[] };
  return new Set(files.filter((f) => f.split === "held-out").map((f) => f.file));
}

function printTotals(title: string, total: Scores): void {
  console.log("");
  console.log(`${title.padEnd(16)} precision  recall   (right/given, found/expected; candidates: share a reviewer labelled, labelled facts found graded or as one)`);
  for (const p of TALLIES) {
    const t = total[p];
    console.log(`${p.padEnd(16)} ${precision(t).toFixed(2).padStart(9)} ${recall(t).toFixed(2).padStart(7)}   (${t.right}/${t.given}, ${t.found}/${t.expected})`);
  }
}

// `--dev`: every set but the measure, whose totals are then never printed (a change read on the dev sets
// can be measured there as often as needed; the measure is looked at once the change is finished).
const devOnly = process.argv.includes("--dev");
if (devOnly && process.argv.includes("--write")) {
  console.error("--write scores the measure set, which --dev leaves out: run one or the other");
  process.exit(1);
}
const measureName = BLIND_SETS[0].name;
if (devOnly) console.log(`(--dev: the measure set ${measureName} is left out)`);

const sets: ("tuned" | BlindSetName)[] = [...BLIND_SETS.map((b) => b.name), "tuned"];
for (const set of sets.filter((name) => !devOnly || name !== measureName)) {
  const { fixtures, total } = scoreLabelledSet(set);
  const blind = BLIND_SETS.find((b) => b.name === set);
  const held = blind ? heldOut(blind.provenance) : new Set<string>();
  console.log(
    blind
      ? `\nThe blind set ${blind.name} (test/labels/${blind.name}; ${blind.about}):\n`
      : "\nThe older set (test/labels, labelled by the extractor's authors; regression tests):\n",
  );
  // "rule?" and "anchor?": a tally's candidates, kept short so a row stays one line.
  const column = (p: string) => p.replace("Candidates", "?");
  const header = ["fixture".padEnd(58), ...TALLIES.map((p) => `${column(p)} P`.padStart(10) + `${column(p)} R`.padStart(10))].join(" ");
  console.log(header);
  const heldTotal = emptyScores();
  const devTotal = emptyScores();
  for (const fixture of fixtures) {
    const name = fixture.fixture.slice(0, 57).padEnd(58);
    if (fixture.pending) {
      console.log(`${name} pending: ${fixture.pending}`);
      continue;
    }
    if (held.has(fixture.fixture)) {
      addScores(heldTotal, fixture.scores);
      continue;
    }
    addScores(devTotal, fixture.scores);
    const cells = TALLIES.map((p) => {
      const t = fixture.scores[p];
      return cell(t.right, t.given).padStart(10) + cell(t.found, t.expected).padStart(10);
    });
    console.log([name, ...cells].join(" ") + (fixture.stale.length ? `  STALE LABELS: ${fixture.stale.join(", ")}` : ""));
  }
  const devSessions = fixtures.filter((fixture) => !fixture.pending && !held.has(fixture.fixture)).length;
  if (held.size > 0) {
    console.log(`(${held.size} sessions held out: their rows are not printed, so that no one changing the extractor reads why they fail)`);
    // A set held out whole has no dev half: its empty totals would print as a perfect 1.00.
    if (devSessions > 0) printTotals("dev", devTotal);
    printTotals("held out", heldTotal);
  }
  if (held.size === 0 || devSessions > 0) printTotals(held.size > 0 ? "all" : "probe", total);
}

// The measure set's totals, for the app's score card: only from a run where all its sessions were scored.
if (process.argv.includes("--write")) {
  const measure = BLIND_SETS[0];
  const { fixtures, total } = scoreLabelledSet(measure.name);
  const pending = fixtures.filter((fixture) => fixture.pending);
  if (fixtures.length === 0 || pending.length > 0) {
    console.error(`not written: ${pending.length} of ${fixtures.length} sessions of ${measure.name} were not scored (SESSION_BLIND_FIXTURES names their folder)`);
    process.exit(1);
  }
  const out: KeyMeasure = {
    set: measure.name,
    sessions: fixtures.length,
    measured: new Date().toISOString().slice(0, 10),
    command: "SESSION_BLIND_FIXTURES=../blind-fixtures npm run facts",
    probes: Object.fromEntries(TALLIES.map((probe) => [probe, { ...total[probe] }])) as KeyMeasure["probes"],
  };
  writeFileSync(join(root, "core/checkride/key-measure.json"), JSON.stringify(out, null, 2) + "\n");
  console.log(`\nwrote core/checkride/key-measure.json (${measure.name}, ${fixtures.length} sessions)`);
}
