/** A usage reader as a fold: gone on from copies, a piece at a time, it reads what one pass over the path reads. */
import { describe, expect, it } from "vitest";
import { ClaudeUsageFold, claudeUsage } from "../../../core/usage/claude.ts";
import { PiUsageFold, piUsage } from "../../../core/usage/pi.ts";
import type { UsageFold } from "../../../core/usage/fold.ts";
import type { Entry } from "../../../core/model.ts";
import { describeWithFixtures } from "../../helpers/fixtures.ts";
import { fixturesByLoadability } from "../../helpers/loadable.ts";

/** The path folded in `pieces`, each piece added to a copy of the fold before it (as a followed file's looks do). */
function foldedInPieces(start: UsageFold, path: readonly Entry[], pieces: number) {
  let fold = start;
  const size = Math.max(1, Math.ceil(path.length / pieces));
  for (let from = 0; from < path.length; from += size) {
    fold = fold.copy();
    for (const entry of path.slice(from, from + size)) fold.add(entry);
  }
  return fold.series();
}

describeWithFixtures("on every Claude Code and Pi fixture, the usage folded a piece at a time is the usage of the whole path", () => {
  const sessions = fixturesByLoadability().loaded.filter((f) => f.session.format === "claude" || f.session.format === "pi");
  it.each(sessions.map((f) => [f.name, f] as const))("%s, in 3 and in 40 pieces (past the layers a copy keeps)", (_name, { session }) => {
    const path = session.path(session.defaultLeafId);
    const whole = session.format === "claude" ? claudeUsage(path) : piUsage(path);
    const fresh = () => (session.format === "claude" ? new ClaudeUsageFold() : new PiUsageFold());
    expect(foldedInPieces(fresh(), path, 3)).toEqual(whole);
    expect(foldedInPieces(fresh(), path, 40)).toEqual(whole);
  });
});

describe("a usage fold", () => {
  const assistant = (id: string, apiId: string, output: number): Entry => ({
    id,
    parentId: null,
    type: "assistant",
    line: Number(id.slice(1)),
    messages: [{ id, role: "assistant", meta: { id: apiId, usage: { input_tokens: 10, output_tokens: output } }, blocks: [] }],
  });

  it("a series handed out stays as it was when a copy goes on (a streamed line's figures replace the turn in the copy only)", () => {
    const fold = new ClaudeUsageFold();
    fold.add(assistant("L1", "msg_1", 5));
    const before = fold.series();
    const next = fold.copy();
    next.add(assistant("L2", "msg_1", 9));
    expect(before.turns).toEqual([expect.objectContaining({ line: 1, output: 5 })]);
    expect(next.series().turns).toEqual([expect.objectContaining({ line: 2, output: 9 })]);
  });

  it("takes no more entries once copied", () => {
    const fold = new PiUsageFold();
    fold.copy();
    expect(() => fold.add(assistant("L1", "m", 1))).toThrow(/copied/);
  });
});
