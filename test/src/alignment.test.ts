/** Pane alignment: which rows hold the same source message, and which active rows are rewrites. */
import { describe, expect, it } from "vitest";
import type { Message } from "../../core/model.ts";
import { alignPanes, knownRows } from "../../src/worker/alignment.ts";
import { grownPaneModel } from "../../src/worker/pane-growth.ts";
import { buildPaneModel } from "../../src/worker/projection.ts";
import { TransparentGrowth } from "../../core/strategies/transparent-growth.ts";
import { describeWithFixtures } from "../helpers/fixtures.ts";
import { fixturesByLoadability } from "../helpers/loadable.ts";

const text = (id: string, role: Message["role"], body: string): Message => ({ id, role, meta: {}, blocks: [{ type: "text", text: body }] });
const marker = { type: "omitted", recoveryId: "r#/blocks", sha256: "0".repeat(64), bytes: 10, kind: "toolResult", label: "bash result" } as const;

describe("alignPanes", () => {
  const user = text("u1", "user", "Fix the ledger.");
  const assistant = text("a1", "assistant", "I will run the tests first, then fix the ledger.");
  const result = text("r1", "toolResult", "12 passed");
  const later = text("u2", "user", "Now open a PR.");
  const original = [user, assistant, result, later];

  it("the same message object in both panes: aligned both ways, not a rewrite", () => {
    const { activeToOriginal, originalToActive, differs } = alignPanes(original, original);
    expect(Array.from(activeToOriginal)).toEqual([0, 1, 2, 3]);
    expect(Array.from(originalToActive)).toEqual([0, 1, 2, 3]);
    expect(Array.from(differs)).toEqual([0, 0, 0, 0]);
  });

  it("a summary has no source (-1); messages it replaced have no active row (-1)", () => {
    const summary = text("s1", "summary", "The user asked to fix the ledger.");
    const { activeToOriginal, originalToActive } = alignPanes(original, [summary, later]);
    expect(Array.from(activeToOriginal)).toEqual([-1, 3]);
    expect(Array.from(originalToActive)).toEqual([-1, -1, -1, 1]);
  });

  it("prose cut by a cap is a rewrite (differs); a tool output moved behind a marker is an omission (does not)", () => {
    const capped = text("a1", "assistant", "I will run the tests first…");
    const omitted: Message = { ...result, blocks: [marker] };
    const { differs } = alignPanes(original, [user, capped, omitted, later]);
    expect(Array.from(differs)).toEqual([0, 1, 0, 0]);
  });

  it("a tool output rewritten to a stub (no marker) is a rewrite", () => {
    const stubbed = text("r1", "toolResult", "[cleared bash result: 12 passed]");
    expect(Array.from(alignPanes(original, [stubbed]).differs)).toEqual([1]);
  });

  it("an equal copy (not the same object) with the same text is not a rewrite", () => {
    expect(Array.from(alignPanes(original, [{ ...assistant, meta: { copied: true } }]).differs)).toEqual([0]);
  });

  it("a message shown twice in the active pane maps the original row to its first appearance", () => {
    const { activeToOriginal, originalToActive } = alignPanes(original, [user, later, user]);
    expect(Array.from(activeToOriginal)).toEqual([0, 3, 0]);
    expect(originalToActive[0]).toBe(0);
  });
});

describe("alignPanes, a followed file's next look going on from the last one's", () => {
  const user = (id: string, body = id): Message => text(id, "user", body);
  const shortened = (message: Message): Message => ({ ...message, blocks: [{ type: "text", text: "…" }] });

  it("takes the shared rows' matches and rewrites from before, and matches the new rows as a fresh alignment does", () => {
    const first = [user("u1"), user("u2"), user("u3")];
    const activeFirst = [first[0]!, shortened(first[1]!), first[2]!];
    const before = alignPanes(first, activeFirst);
    const grown = [...first, user("u4")];
    const activeGrown = [...activeFirst, shortened(grown[3]!)];
    const index = new Map(grown.map((m, i) => [m.id, i]));
    const fresh = alignPanes(grown, activeGrown, index);
    const going = alignPanes(grown, activeGrown, index, { alignment: before, originalRows: 3, activeRows: 3, originalIdsDistinct: true });
    expect(going).toEqual(fresh);
    expect(Array.from(going.differs)).toEqual([0, 1, 0, 1]);
  });

  it("matches everything again when a shared row was matched as a copy, or when an id names two original rows", () => {
    // A copy under a new id (Codex's replacement history) could be taken by a new row with its id.
    const first = [user("u1", "same"), user("u2")];
    const activeFirst = [user("copy", "same"), first[1]!];
    const before = alignPanes(first, activeFirst);
    expect(Array.from(before.activeToOriginal)).toEqual([0, 1]);
    const grown = [...first, user("copy", "same")];
    const index = new Map(grown.map((m, i) => [m.id, i]));
    const fresh = alignPanes(grown, activeFirst, index);
    expect(Array.from(fresh.activeToOriginal)).toEqual([2, 1]);
    expect(alignPanes(grown, activeFirst, index, { alignment: before, originalRows: 2, activeRows: 2, originalIdsDistinct: true })).toEqual(fresh);
    expect(alignPanes(grown, activeFirst, index, { alignment: before, originalRows: 2, activeRows: 2, originalIdsDistinct: false })).toEqual(fresh);
  });
});

describeWithFixtures("on every real session, the transparent view's alignment grown from the last look's equals a fresh one", () => {
  const sessions = fixturesByLoadability().loaded.filter((f) => f.session.branch(null).length >= 8);
  it.each(sessions.map((f) => [f.name, f] as const))("%s, grown at half", async (_name, { session }) => {
    const branch = session.branch(null);
    const half = Math.floor(branch.length / 2);
    const growth = new TransparentGrowth();
    const earlierOriginal = buildPaneModel(branch.slice(0, half));
    const earlierActive = buildPaneModel((await growth.view(branch.slice(0, half), {})).active);
    const before = alignPanes(earlierOriginal.messages, earlierActive.messages, earlierOriginal.indexById);
    const original = grownPaneModel(earlierOriginal, branch);
    const active = grownPaneModel(earlierActive, (await growth.view(branch, {})).active);
    const fresh = alignPanes(original.messages, active.messages, original.indexById);
    const previous = { alignment: before, originalRows: original.grownFrom!.kept, activeRows: active.grownFrom!.kept, originalIdsDistinct: original.distinctIds };
    expect(alignPanes(original.messages, active.messages, original.indexById, previous)).toEqual(fresh);
    // The shared rows were taken from before, not matched again (where ids are distinct, as in a transparent view of a branch they are).
    if (original.distinctIds) expect(knownRows(original.messages, active.messages, previous)).toBe(active.grownFrom!.kept);
  });
});
