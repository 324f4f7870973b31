/**
 * A Pi compaction's record depends on the path up to it alone, so a followed
 * file's next look takes the records of the compactions it had already read
 * (the same objects) and records only the new ones; the history equals a
 * fresh read's either way.
 */
import { expect, it } from "vitest";
import { FollowedFile } from "../../../core/follow.ts";
import { loadSession } from "../../../core/session.ts";
import { allFixtures, describeWithFixtures, readFixture } from "../../helpers/fixtures.ts";

const withCompactions = () => allFixtures().filter((name) => name.startsWith("pi/") && new TextDecoder().decode(readFixture(name)).includes('"type":"compaction"'));

describeWithFixtures("a followed Pi session's compactions, look after look", () => {
  it.each(withCompactions())("%s: records already made are taken again, and the history equals a fresh read's", (name) => {
    const bytes = readFixture(name);
    const text = new TextDecoder().decode(bytes);
    // Cut just after the first compaction's line: the next look adds what follows it.
    const cut = new TextEncoder().encode(text.slice(0, text.indexOf("\n", text.indexOf('"type":"compaction"')) + 1)).length;
    const follower = new FollowedFile();
    follower.append(bytes.subarray(0, cut));
    const first = follower.session().recordedCompactions(null);
    expect(first.length).toBeGreaterThan(0);
    follower.append(bytes.subarray(cut));
    const grown = follower.session().recordedCompactions(null);
    expect(grown[0]).toBe(first[0]);
    const fresh = loadSession(bytes).recordedCompactions(null);
    expect(grown.map(({ before, after, ...rest }) => ({ ...rest, before: before.map((m) => m.id), after: after.map((m) => m.id) }))).toEqual(
      fresh.map(({ before, after, ...rest }) => ({ ...rest, before: before.map((m) => m.id), after: after.map((m) => m.id) })),
    );
  });
});

it("a Pi fixture with compactions is among the fixtures (else the test above proves nothing)", () => {
  if (allFixtures().length > 0) expect(withCompactions().length).toBeGreaterThan(0);
});
