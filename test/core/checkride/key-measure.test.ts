/**
 * The answer key's measure the score card shows (core/checkride/key-measure.json)
 * is the measure set's own score: written by `npm run facts -- --write`, it must
 * name the set the project measures by and its number of labelled sessions, and,
 * where those sessions are present, equal the score they give now (so it cannot
 * go stale when the extractor or the labels change).
 */
import { describe, expect, it } from "vitest";
import { KEY_MEASURE, probeTrust } from "../../../core/checkride/key-measure.ts";
import { TALLIES } from "../../../core/checkride/label-score.ts";
import { allLabels, BLIND_SETS, scoreLabelledSet } from "../../helpers/labelled-set.ts";

const measure = BLIND_SETS[0];
const scored = scoreLabelledSet(measure.name);
const present = scored.fixtures.length > 0 && scored.fixtures.every((fixture) => !fixture.pending);

describe("the answer key's measure", () => {
  it("is of the set the project measures by, with all its labelled sessions", () => {
    expect(KEY_MEASURE.set).toBe(measure.name);
    expect(KEY_MEASURE.sessions).toBe(allLabels(measure.labels).length);
    expect(Object.keys(KEY_MEASURE.probes).sort()).toEqual([...TALLIES].sort());
  });

  it.skipIf(!present)(`equals the score its sessions give now (\`npm run facts -- --write\` writes it again)`, () => {
    expect(KEY_MEASURE.probes).toEqual(scored.total);
  });

  it("says per probe how often the key is right and finds what a reviewer expects, against the targets", () => {
    const files = probeTrust("files")!;
    const tally = KEY_MEASURE.probes.files;
    expect(files.precision).toBeCloseTo(tally.right / tally.given);
    expect(files.recall).toBeCloseTo(tally.found / tally.expected);
    expect(files.meets).toBe(files.precision >= 0.9 && files.recall >= 0.8);
    // The counts travel with the shares: the card shows "right 53 of 54", since a blind set is small.
    expect(files).toMatchObject({ right: tally.right, given: tally.given, found: tally.found, expected: tally.expected });
    expect(files.explanation).toContain(`${tally.right} of the ${tally.given} facts`);
    expect(files.explanation).toContain(KEY_MEASURE.command);
    // A probe that graded nothing on the set claims no precision (1.00 of nothing is not "right"): it says so,
    // and for rules names what the candidates found.
    const empty = {
      ...KEY_MEASURE,
      probes: { ...KEY_MEASURE.probes, rules: { right: 0, given: 0, found: 0, expected: 24 }, ruleCandidates: { right: 14, given: 72, found: 14, expected: 24 } },
    };
    const rules = probeTrust("rules", empty)!;
    expect(rules).toMatchObject({ given: 0, meets: false, candidatesRecall: 14 / 24, candidatesFound: 14, expected: 24 });
    expect(rules.explanation).toContain("graded none of the 24 facts a reviewer expected by itself; as candidates it found 14 of them (0.58)");
    // Anchors name what their candidates (links, refs) found beside what the graded commits and codes did.
    const anchors = probeTrust("anchors", {
      ...KEY_MEASURE,
      probes: { ...KEY_MEASURE.probes, anchors: { right: 9, given: 10, found: 9, expected: 30 }, anchorCandidates: { right: 12, given: 40, found: 21, expected: 30 } },
    })!;
    expect(anchors).toMatchObject({ given: 10, candidatesFound: 21, candidatesRecall: 21 / 30 });
    expect(anchors.explanation).toContain("as candidates it found 21 of them (0.70)");
    // The labels score no intent: nothing is claimed for it.
    expect(probeTrust("intent")).toBeNull();
  });
});
