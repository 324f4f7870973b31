/** Repeated compaction rounds and planted facts. */
import { expect, it } from "vitest";
import { deriveDistractor, distinguishingToken, plantedBranch, runRounds } from "../../../core/evaluate/rounds.ts";
import { loadSession } from "../../../core/session.ts";
import { readFixture, describeWithFixtures, fixturesPresent } from "../../helpers/fixtures.ts";

// Read only where the fixtures are present: every suite that uses it is skipped otherwise.
const branch = fixturesPresent ? loadSession(readFixture("pi/JohnnyLai92__pi-mono__6edf3497.jsonl")).branch(null) : (undefined as never);

describeWithFixtures("planted facts", () => {
  it("derives a look-alike that differs in one distinguishing token", () => {
    expect(deriveDistractor("The database listens on port 6543.")).toBe("The database listens on port 6544.");
    expect(deriveDistractor("Never deploy on Fridays.")).toBe("Never deploy on Saturdays.");
    expect(deriveDistractor("Use the blue pipeline")).toBe("Use the blue old-pipeline");
    expect(distinguishingToken("port 6543", "port 6544")).toBe("6543");
  });

  it("inserts the fact and the distractor at their positions", () => {
    const { branch: planted } = plantedBranch(branch, { text: "Fact A 1", at: 3, distractorAt: 10 });
    expect(planted).toHaveLength(branch.length + 2);
    expect(planted[3]!.id).toBe("planted:fact");
    expect(planted[11]!.id).toBe("planted:distractor");
  });
});

describeWithFixtures("rounds", () => {
  it("transparent carries a planted fact through every round; scores are per round", async () => {
    const results = await runRounds(branch, ["transparent", "brief"], 4, { reader: "literal", plant: { text: "The staging database listens on port 6543.", at: 20 } });
    const transparent = results.find((r) => r.strategy === "transparent")!;
    expect(transparent.rounds.map((r) => r.round)).toEqual([1, 2, 3, 4]);
    expect(transparent.rounds.at(-1)!.messages).toBe(branch.length + 2);
    expect(transparent.rounds.every((r) => r.planted === "pass")).toBe(true);
    for (const round of transparent.rounds) expect(round.passed).toBeLessThanOrEqual(round.asked);
    // brief re-briefs its own brief each round: the planted sentence does not survive.
    expect(results.find((r) => r.strategy === "brief")!.rounds.at(-1)!.planted).not.toBe("pass");
  });

  it("a fact planted after a round's cut is not graded in that round", async () => {
    const [result] = await runRounds(branch, ["transparent"], 2, { reader: "literal", plant: { text: "Remember the code word zebra.", at: branch.length - 1 } });
    expect(result!.rounds[0]!.planted).toBeUndefined();
    expect(result!.rounds[1]!.planted).toBe("pass");
  });
});
