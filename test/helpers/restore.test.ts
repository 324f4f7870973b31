/** The "nothing is lost" check itself: it must catch one lost payload beside an archived one. */
import { describe, expect, it } from "vitest";
import type { ArchiveEntry } from "../../core/checkpoint.ts";
import type { Message } from "../../core/model.ts";
import { lostMessages, restoreMessage } from "./restore.ts";

const original: Message = {
  id: "m1",
  role: "assistant",
  meta: {},
  blocks: [
    { type: "thinking", text: "first I think" },
    { type: "text", text: "Here is the plan." },
    { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
  ],
};
const marker = (index: number) => ({ type: "omitted", recoveryId: `m1#/blocks/${index}`, sha256: "0".repeat(64), bytes: 1, kind: "thinking", label: "x" }) as const;
const entry = (path: string, payload: unknown): ArchiveEntry => ({ id: `m1#${path}`, sha256: "0".repeat(64), bytes: 1, kind: "thinking", messageId: "m1", path, payload });

describe("lostMessages", () => {
  it("passes a message whose every moved-out block is archived at its own path", () => {
    const active: Message = { ...original, blocks: [marker(0), original.blocks[1]!, marker(2)] };
    expect(lostMessages([original], [active], [entry("/blocks/0", original.blocks[0]), entry("/blocks/2", original.blocks[2])])).toEqual([]);
  });

  it("fails a message that lost one payload while another of its payloads was archived", () => {
    const active: Message = { ...original, blocks: [marker(0), original.blocks[1]!, marker(2)] };
    expect(lostMessages([original], [active], [entry("/blocks/0", original.blocks[0])])).toEqual(["m1"]);
  });

  it("fails a payload archived with other bytes than were moved out", () => {
    const active: Message = { ...original, blocks: [marker(0), original.blocks[1]!, original.blocks[2]!] };
    expect(lostMessages([original], [active], [entry("/blocks/0", { type: "thinking", text: "something else" })])).toEqual(["m1"]);
  });

  it("passes a whole message moved out (path ''), and one kept as it was", () => {
    expect(lostMessages([original], [], [entry("", original)])).toEqual([]);
    expect(lostMessages([original], [original], [])).toEqual([]);
    expect(lostMessages([original], [], [])).toEqual(["m1"]);
  });

  it("a whole content list archived (/blocks) comes back over a stub", () => {
    const stubbed: Message = { ...original, blocks: [{ type: "text", text: "[cleared]" }] };
    expect(restoreMessage(stubbed, [entry("/blocks", original.blocks)])).toEqual(original);
  });
});
