/**
 * A growing transparent view whose payloads' hashing fails half-way leaves
 * nothing behind: the next view equals the whole view made the general way.
 */
import { describe, expect, it, vi } from "vitest";
import type { Message } from "../../../core/model.ts";

const failing = vi.hoisted(() => ({ next: false }));
vi.mock("../../../core/strategies/transparent-payloads.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../core/strategies/transparent-payloads.ts")>();
  return {
    ...real,
    hashPayloads: async (...args: Parameters<typeof real.hashPayloads>) => {
      if (failing.next) {
        failing.next = false;
        throw new Error("digest failed");
      }
      return real.hashPayloads(...args);
    },
  };
});

const { TransparentGrowth } = await import("../../../core/strategies/transparent-growth.ts");
const { transparent } = await import("../../../core/strategies/transparent.ts");

const call = (id: string, callId: string): Message => ({ id, role: "assistant", meta: {}, blocks: [{ type: "toolCall", id: callId, name: "bash", arguments: { command: "ls" } }] });
const result = (id: string, callId: string, text: string): Message => ({ id, role: "toolResult", meta: { toolCallId: callId }, blocks: [{ type: "text", text }] });
const user = (id: string): Message => ({ id, role: "user", meta: {}, blocks: [{ type: "text", text: id }] });

describe("a growing transparent view after a failed one", () => {
  it("starts afresh: the view after the failure equals the whole view", async () => {
    const growth = new TransparentGrowth();
    const first = [user("u1"), call("a1", "c1"), result("r1", "c1", "one")];
    await growth.view(first, {});
    // Another branch from u1 fails while its payloads are hashed.
    failing.next = true;
    await expect(growth.view([user("u1"), call("b1", "c9"), result("s1", "c9", "other")], {})).rejects.toThrow("digest failed");
    const grown = [...first, call("a2", "c2"), result("r2", "c2", "two")];
    const view = await growth.view(grown, {});
    const whole = await transparent(grown, { maxProseChars: Number.MAX_SAFE_INTEGER }, {});
    expect(view.active).toEqual(whole.active);
    expect(view.archive).toEqual(whole.archive);
    expect(view.stats).toEqual(whole.stats);
    expect(growth.lastReadFrom).toBe(0);
  });
});
