/**
 * The growing transparent view (a followed session's, issue #29) equals the
 * transparent view of the whole branch made the general way (the capped
 * path with a cap nothing reaches), look after look: on every fixture read
 * by a follower in pieces, and on generated branches that grow, have their
 * last messages replaced (a streamed line merged into the message before)
 * and reuse tool call ids.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FollowedFile } from "../../../core/follow.ts";
import type { Block, Message } from "../../../core/model.ts";
import { transparent } from "../../../core/strategies/transparent.ts";
import { TransparentGrowth } from "../../../core/strategies/transparent-growth.ts";
import type { StrategyResult } from "../../../core/strategies/types.ts";
import { allFixtures, describeWithFixtures, readFixture } from "../../helpers/fixtures.ts";

/** The general path: the prose cap's walk with a cap no prose reaches moves nothing, so it is the uncapped view. */
const reference = (branch: readonly Message[]) => transparent(branch, { maxProseChars: Number.MAX_SAFE_INTEGER }, {});

function same(grown: StrategyResult, whole: StrategyResult): void {
  expect(grown.active).toEqual(whole.active);
  expect(grown.archive).toEqual(whole.archive);
  expect(grown.stats).toEqual(whole.stats);
}

describeWithFixtures("the growing transparent view on every fixture", () => {
  it.each(allFixtures().filter((name) => name.endsWith(".jsonl")))("%s, followed in 6 pieces, equals the whole view at each look", async (relative) => {
    const bytes = readFixture(relative);
    const follower = new FollowedFile();
    const growth = new TransparentGrowth();
    let reused = 0;
    for (let piece = 1; piece <= 6; piece++) {
      follower.append(bytes.subarray(Math.floor(((piece - 1) * bytes.length) / 6), Math.floor((piece * bytes.length) / 6)));
      const branch = follower.session().branch(null);
      same(await growth.view(branch, {}), await reference(branch));
      reused += growth.lastReadFrom;
    }
    // A followed Pi, Claude Code or Codex file keeps its branch's messages from look to look.
    if (follower.growsInPlace && follower.session().branch(null).length > 10) expect(reused).toBeGreaterThan(0);
  });

  it.each(allFixtures().filter((name) => name.endsWith(".jsonl")))("%s, opened, then read again by a follower that grows: the opened view is adopted", async (relative) => {
    const bytes = readFixture(relative);
    const half = Math.floor(bytes.length / 2);
    const opened = new FollowedFile();
    opened.append(bytes.subarray(0, half));
    const growth = new TransparentGrowth();
    const openedBranch = opened.session().branch(null);
    await growth.view(openedBranch, {});
    // Follow's first look reads the same bytes again: other objects, the same messages.
    const follower = new FollowedFile();
    follower.append(bytes.subarray(0, half));
    const readAgain = follower.session().branch(null);
    expect(growth.adopt(readAgain)).toBe(openedBranch.length > 0);
    // Adopting is as good as having made the view from the follower's own objects.
    const control = new TransparentGrowth();
    await control.view(readAgain, {});
    follower.append(bytes.subarray(half));
    const grown = follower.session().branch(null);
    same(await growth.view(grown, {}), await reference(grown));
    await control.view(grown, {});
    expect(growth.lastReadFrom).toBe(control.lastReadFrom);
  });
});

const text = (value: string): Block => ({ type: "text", text: value });

/** A generated message: prose, thinking, a tool call (ids from a small set, so some repeat) or its result. */
const messageArb = fc.oneof(
  fc.record({ kind: fc.constant("user" as const), words: fc.string({ maxLength: 30 }) }),
  fc.record({ kind: fc.constant("thinking" as const), words: fc.string({ maxLength: 30 }) }),
  fc.record({ kind: fc.constant("call" as const), id: fc.integer({ min: 0, max: 6 }), name: fc.constantFrom("bash", "read", "edit") }),
  fc.record({ kind: fc.constant("result" as const), id: fc.integer({ min: 0, max: 6 }), output: fc.string({ maxLength: 40 }), error: fc.boolean() }),
);

type Generated = typeof messageArb extends fc.Arbitrary<infer T> ? T : never;

function toMessage(generated: Generated, id: string): Message {
  switch (generated.kind) {
    case "user":
      return { id, role: "user", meta: {}, blocks: [text(generated.words)] };
    case "thinking":
      return { id, role: "assistant", meta: { model: "m" }, blocks: [{ type: "thinking", text: generated.words }, text("ok")] };
    case "call":
      return { id, role: "assistant", meta: {}, blocks: [{ type: "toolCall", id: `call-${generated.id}`, name: generated.name, arguments: { n: generated.id } }] };
    case "result":
      return { id, role: "toolResult", meta: { toolCallId: `call-${generated.id}`, isError: generated.error }, blocks: [text(generated.output)] };
  }
}

describe("the growing transparent view on generated branches", () => {
  it("equals the whole view after every growth, replacement of the last messages, reuse of a call id and of a message id, and a look back at an earlier branch", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ added: fc.array(messageArb, { maxLength: 8 }), replaceLast: fc.nat({ max: 3 }), repeatId: fc.nat({ max: 12 }), back: fc.nat({ max: 4 }) }), {
          minLength: 1,
          maxLength: 6,
        }),
        async (looks) => {
          const growth = new TransparentGrowth();
          let branch: Message[] = [];
          const earlier: Message[][] = [];
          let minted = 0;
          for (const look of looks) {
            // Now and then a look at an earlier, shorter branch (another leaf chosen), then on from the newest.
            if (look.back === 0 && earlier.length > 0) {
              const old = earlier[look.repeatId % earlier.length]!;
              same(await growth.view(old, {}), await reference(old));
            }
            earlier.push(branch);
            // A replaced message is a new object with the same id (Claude Code's streamed lines merged anew).
            const kept = branch.slice(0, Math.max(0, branch.length - look.replaceLast));
            const replaced = branch.slice(kept.length).map((message) => ({ ...message, blocks: [...message.blocks, text("more")] }));
            const added = look.added.map((generated) => toMessage(generated, `m${minted++}`));
            // Now and then a message takes an earlier one's id (two records of one id: the stats pair both with its last active copy).
            if (added.length > 0 && branch.length > 0 && look.repeatId < branch.length && look.repeatId % 3 === 0) added[0] = { ...added[0]!, id: branch[look.repeatId]!.id };
            branch = [...kept, ...replaced, ...added];
            same(await growth.view(branch, {}), await reference(branch));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("reads only what follows the shared start, and the whole branch when a call id comes again after it", async () => {
    const growth = new TransparentGrowth();
    const first = [toMessage({ kind: "call", id: 1, name: "bash" }, "a"), toMessage({ kind: "result", id: 1, output: "x", error: false }, "b")];
    await growth.view(first, {});
    const grown = [...first, toMessage({ kind: "user", words: "next" }, "c")];
    await growth.view(grown, {});
    expect(growth.lastReadFrom).toBe(2);
    // A later call with the first call's id renames what the earlier result answers: read again from the start.
    const reused = [...grown, toMessage({ kind: "call", id: 1, name: "edit" }, "d")];
    same(await growth.view(reused, {}), await reference(reused));
    expect(growth.lastReadFrom).toBe(0);
  });

  it("adopts only the same messages read again: a branch of another length, id, role or shape is refused and nothing changes", async () => {
    const growth = new TransparentGrowth();
    const branch = [
      toMessage({ kind: "user", words: "fix it" }, "a"),
      toMessage({ kind: "call", id: 1, name: "bash" }, "b"),
      toMessage({ kind: "result", id: 1, output: "ok", error: false }, "c"),
    ];
    expect(growth.adopt(branch)).toBe(false); // nothing viewed yet
    await growth.view(branch, {});
    const clone = (messages: Message[]) => messages.map((m) => structuredClone(m));
    expect(growth.adopt(clone(branch).slice(0, 2))).toBe(false);
    expect(growth.adopt(clone(branch).map((m, i) => (i === 1 ? { ...m, id: "x" } : m)))).toBe(false);
    expect(growth.adopt(clone(branch).map((m, i) => (i === 0 ? { ...m, role: "assistant" as const } : m)))).toBe(false);
    expect(growth.adopt(clone(branch).map((m, i) => (i === 2 ? { ...m, blocks: [...m.blocks, text("more")] } : m)))).toBe(false);
    // Refused adoptions left the view's own branch: its growth is still read from where it was.
    await growth.view([...branch, toMessage({ kind: "user", words: "next" }, "d")], {});
    expect(growth.lastReadFrom).toBe(3);
    // The same messages as other objects are adopted, and the next view goes on from them.
    const again = clone(branch);
    expect(growth.adopt([...again, toMessage({ kind: "user", words: "next" }, "d")])).toBe(true);
  });
});
