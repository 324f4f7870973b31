/** A followed file's pane models, grown from the last look's: the same maps a fresh build makes. */
import { describe, expect, it } from "vitest";
import type { Message } from "../../core/model.ts";
import { grownPaneModel } from "../../src/worker/pane-growth.ts";
import { buildPaneModel, paneGeometry, projectRow, rowShapes, type PaneModel } from "../../src/worker/projection.ts";
import { describeWithFixtures } from "../helpers/fixtures.ts";
import { fixturesByLoadability } from "../helpers/loadable.ts";

const maps = (model: PaneModel) => ({
  indexById: [...model.indexById].sort(),
  callRow: [...model.callRow].sort(),
  resultRow: [...model.resultRow].sort(),
  calls: [...model.calls.keys()].sort(),
});

/** Another object for the same message, as a re-merged streamed line is. */
const madeAgain = (message: Message): Message => ({ ...message, blocks: [...message.blocks] });

describeWithFixtures("on every real session, a pane model grown from the one before equals one built whole", () => {
  const sessions = fixturesByLoadability().loaded.filter((f) => f.session.branch(null).length >= 8);
  it.each(sessions.map((f) => [f.name, f] as const))("%s, grown at half and with its tail made again", (_name, { session }) => {
    const branch = session.branch(null);
    const half = Math.floor(branch.length / 2);
    // Pure growth: the first half's objects, then the rest.
    const grown = grownPaneModel(buildPaneModel(branch.slice(0, half)), branch);
    expect(maps(grown)).toEqual(maps(buildPaneModel(branch)));
    // The last three rows of the earlier look made again (a response merged with its next line).
    const earlier = [...branch.slice(0, half - 3), ...branch.slice(half - 3, half).map(madeAgain)];
    const regrown = grownPaneModel(buildPaneModel(earlier), branch);
    expect(maps(regrown)).toEqual(maps(buildPaneModel(branch)));
  });

  it.each(sessions.map((f) => [f.name, f] as const))("%s: the geometry of a grown model (its shared rows' shapes copied) equals a whole build's", (_name, { session }) => {
    const branch = session.branch(null);
    const half = Math.floor(branch.length / 2);
    const none = new Int32Array(branch.length).fill(-1);
    const whole = paneGeometry(buildPaneModel(branch), null, none);
    const looks: [Message[], number][] = [
      [branch.slice(0, half), half],
      [[...branch.slice(0, half - 3), ...branch.slice(half - 3, half).map(madeAgain)], half - 3],
    ];
    for (const [earlier, shared] of looks) {
      const before = buildPaneModel(earlier);
      rowShapes(before);
      const grown = grownPaneModel(before, branch);
      expect(grown.grownFrom?.kept).toBe(shared);
      expect(paneGeometry(grown, null, none)).toEqual(whole);
    }
  });
});

describe("grownPaneModel", () => {
  const call = (id: string, callId: string): Message => ({
    id,
    role: "assistant",
    meta: {},
    blocks: [{ type: "toolCall", id: callId, name: "bash", arguments: { command: "ls" } }],
  });
  const result = (id: string, callId: string): Message => ({ id, role: "toolResult", meta: { toolCallId: callId }, blocks: [{ type: "text", text: "ok" }] });
  const user = (id: string): Message => ({ id, role: "user", meta: {}, blocks: [{ type: "text", text: id }] });

  it("the earlier model's lookups stay within its own rows once a later one shares its maps", () => {
    const before = [user("u1"), call("a1", "c1")];
    const earlier = buildPaneModel(before);
    const later = grownPaneModel(earlier, [...before, result("r1", "c1")]);
    expect(later.resultRow.get("c1")).toBe(2);
    // The earlier view still draws its call as unanswered: row 2 is not one of its rows.
    expect(projectRow(earlier, 1, -1, false).blocks[0]).toMatchObject({ type: "toolCall", resultRow: -1 });
    expect(projectRow(later, 1, -1, false).blocks[0]).toMatchObject({ type: "toolCall", resultRow: 2 });
  });

  it("is made whole from a model with an id on two rows, from a shorter list, and from one already grown from", () => {
    const twice = [user("u1"), user("u1")];
    const fromTwice = buildPaneModel(twice);
    expect(fromTwice.distinctIds).toBe(false);
    expect(grownPaneModel(fromTwice, [...twice, user("u2")]).indexById).not.toBe(fromTwice.indexById);

    const long = buildPaneModel([user("u1"), user("u2")]);
    expect(grownPaneModel(long, [user("x")]).indexById).not.toBe(long.indexById);

    const first = buildPaneModel([user("u1")]);
    const second = grownPaneModel(first, [...first.messages, user("u2")]);
    expect(second.indexById).toBe(first.indexById);
    // A look cancelled after growing from `first` must not grow from it again: its maps are second's.
    expect(grownPaneModel(first, [...first.messages, user("u3")]).indexById).not.toBe(first.indexById);
  });

  it("a new row whose id an earlier row has is drawn as a fresh build draws it, and the next look is made whole", () => {
    const first = buildPaneModel([user("u1"), user("u2")]);
    const grown = grownPaneModel(first, [...first.messages, user("u1")]);
    expect(maps(grown)).toEqual(maps(buildPaneModel([...first.messages, user("u1")])));
    expect(grown.distinctIds).toBe(false);
  });
});
