/**
 * Following a file as it is written (issue #29): every fixture appended in
 * pieces cut anywhere (mid-line, mid-character), the session rebuilt at
 * points along the way, ends equal to a fresh read of the final file; a file
 * that shrinks or changes under the follower starts over and says why.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FollowedFile } from "../../core/follow.ts";
import { loadSession } from "../../core/session.ts";
import type { Session } from "../../core/model.ts";
import { allFixtures, describeWithFixtures, readFixture } from "../helpers/fixtures.ts";
import { composedBytes } from "../helpers/composed-sessions.ts";
import { piSession } from "../helpers/generated-pi.ts";
import { claudeSession, codexRollout } from "../helpers/generated-transcripts.ts";

/** What a reader of the session sees: the tree, the default branch, the recorded compactions and usage. */
function shape(session: Session): unknown {
  const leaf = session.defaultLeafId;
  return {
    format: session.format,
    formatVersion: session.formatVersion,
    header: session.header,
    entries: session.entries.map((e) => [e.id, e.parentId, e.type, e.line, e.messages]),
    leaves: session.leaves,
    leaf,
    compactions: session
      .recordedCompactions(leaf)
      .map((c) => [c.index, c.line, c.kind, c.droppedMessageIds, c.before.map((m) => m.id), c.after.map((m) => m.id), c.summary, c.tokensBefore, c.tokensAfter]),
    recorded: session.recordedContext(leaf).messages.map((m) => m.id),
    usage: session.usage(leaf).turns,
    usageNotes: session.usage(leaf).notes,
    branch: session.branch(leaf),
    otherBranches: session.leaves.slice(0, 4).map((id) => session.branch(id).map((m) => m.id)),
    warnings: session.warnings,
  };
}

/** A writer ends every line: a fixture without a final newline gets one, as the agent's next write would. */
const ended = (bytes: Uint8Array) => (bytes.at(-1) === 10 ? bytes : new Uint8Array([...bytes, 10]));

function follow(bytes: Uint8Array, cuts: number[], lookEvery: number): FollowedFile {
  const follower = new FollowedFile();
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  points.push(bytes.length);
  points.forEach((to, i) => {
    follower.append(bytes.subarray(from, to));
    from = to;
    // Looking at the session along the way must not change what the end shows.
    if (i % lookEvery === 0) {
      try {
        follower.session();
      } catch {
        // A file not yet readable (a JSON value half written, no record yet): the follower waits.
      }
    }
  });
  return follower;
}

describeWithFixtures("a followed fixture equals a fresh read of the final file", () => {
  it.each(allFixtures())("%s, appended in pieces cut anywhere", (fixture) => {
    const bytes = ended(readFixture(fixture));
    const fresh = shape(loadSession(bytes));
    fc.assert(
      fc.property(fc.array(fc.nat(bytes.length), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 4 }), (cuts, lookEvery) => {
        expect(shape(follow(bytes, cuts, lookEvery).session())).toEqual(fresh);
      }),
      { numRuns: 6 },
    );
  });
});

describe("a followed generated session equals a fresh read", () => {
  // Pi, Claude Code and Codex files grow in place (the tree and the branch take only what was added; the
  // last two once their first 50 records name the format): a parent not known yet, a reused id, a v1 file,
  // streamed lines sharing a message id, results beside the path, sidechains, boundaries whose logical
  // parent was never written must still end where a fresh read of the final file does.
  it.each([
    ["Pi trees", piSession, 200],
    ["Claude Code transcripts", claudeSession, 120],
    ["Codex rollouts", codexRollout, 120],
  ] as const)("%s, cut anywhere, looked at along the way", (_, sessions, numRuns) => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(sessions, fc.array(fc.nat(), { minLength: 1, maxLength: 10 }), fc.integer({ min: 1, max: 3 }), (text, cuts, lookEvery) => {
        const bytes = encoder.encode(text);
        const fresh = shape(loadSession(bytes));
        expect(shape(follow(bytes, cuts, lookEvery).session())).toEqual(fresh);
      }),
      { numRuns },
    );
  });

  // Each look after the first 50 records goes on from the branch served before (the streamed lines' merge
  // resumed where it stopped), unless the growth could change what came before: equal to a fresh read at every look.
  it("a Claude Code transcript grown a few lines at a time equals a fresh read of what is there at every look", () => {
    const encoder = new TextEncoder();
    for (const text of fc.sample(claudeSession, { numRuns: 40, seed: 3 })) {
      const lines = text.split("\n").slice(0, -1);
      const follower = new FollowedFile();
      for (let at = 0; at < lines.length; at += 5) {
        follower.append(encoder.encode(lines.slice(at, at + 5).join("\n") + "\n"));
        const sofar = encoder.encode(lines.slice(0, at + 5).join("\n") + "\n");
        expect(shape(follower.session())).toEqual(shape(loadSession(sofar)));
      }
    }
  });

  it("a Claude Code transcript is read record by record once its format is named, not rebuilt", () => {
    const lines = fc.sample(claudeSession, { numRuns: 1, seed: 7 })[0]!;
    const follower = new FollowedFile();
    follower.append(new TextEncoder().encode(lines));
    follower.session();
    expect(follower.growsInPlace).toBe(true);
    // Under 50 records the format is not named yet: rebuilt from the records, as a fresh read decides.
    const short = new FollowedFile();
    short.append(new TextEncoder().encode(lines.split("\n").slice(0, 10).join("\n") + "\n"));
    short.session();
    expect(short.growsInPlace).toBe(false);
  });
});

describe("following", () => {
  const bytes = composedBytes.geminiRestarts();

  it("a Gemini chat whose history is written again follows to the same compactions", () => {
    const fresh = shape(loadSession(bytes));
    for (const size of [1, 7, 64]) {
      const follower = new FollowedFile();
      for (let at = 0; at < bytes.length; at += size) follower.append(bytes.subarray(at, at + size));
      expect(shape(follower.session())).toEqual(fresh);
    }
  });

  it("a line cut in the middle waits for its end: no record, no warning", () => {
    const text = new TextDecoder().decode(bytes);
    const cut = text.indexOf("\n", 200) + 30;
    const follower = new FollowedFile();
    follower.append(bytes.subarray(0, cut));
    const partial = follower.session();
    expect(partial.warnings).toEqual([]);
    expect(follower.append(bytes.subarray(cut, cut + 5)).kind).toBe("unchanged");
    expect(follower.append(bytes.subarray(cut + 5)).kind).toBe("grew");
    expect(follower.session().entries.length).toBeGreaterThan(partial.entries.length);
  });

  it("a file that shrinks or changes under it starts over, saying why", () => {
    const follower = new FollowedFile();
    follower.append(bytes);
    expect(follower.check(bytes.length, follower.tailBytes)).toBeNull();
    expect(follower.check(10, follower.tailBytes)).toMatchObject({ kind: "rewritten", why: expect.stringMatching(/shrank/) });
    expect(follower.offset).toBe(0);
    follower.append(bytes);
    const changed = follower.tailBytes.slice();
    changed[0] = changed[0]! ^ 1;
    expect(follower.check(bytes.length + 10, changed)).toMatchObject({ kind: "rewritten", why: expect.stringMatching(/rewritten in place/) });
  });
});
