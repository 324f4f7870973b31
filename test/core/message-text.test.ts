/** A message as text for each purpose: what search, grading and the report each see. */
import { describe, expect, it } from "vitest";
import { displayText, gradingText, searchText } from "../../core/message-text.ts";
import type { Message } from "../../core/model.ts";

const message: Message = {
  id: "m7",
  role: "bash",
  meta: { command: "npm test" },
  blocks: [
    { type: "text", text: "Running the tests." },
    { type: "thinking", text: "they failed yesterday" },
    { type: "toolCall", id: "c1", name: "bash", arguments: { command: "npm test" } },
    { type: "omitted", recoveryId: "m7#/blocks/4", sha256: "ab".repeat(32), bytes: 120, kind: "bashOutput", label: "bash output: exit 1" },
    { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
    { type: "raw", value: { type: "x-future", n: 1 } },
  ],
};

describe("message text for a purpose", () => {
  it("search: the id, prose and thinking, tool name and arguments, marker label and recovery id; no images or raw values", () => {
    expect(searchText(message)).toBe('m7\nRunning the tests.\nthey failed yesterday\nbash {"command":"npm test"}\nbash output: exit 1 m7#/blocks/4\n');
  });

  it("grading: the role, every block as a reader of the context sees it, and a bash message's command", () => {
    expect(gradingText(message).split("\n")).toEqual([
      "[bash]",
      "Running the tests.",
      "they failed yesterday",
      '→ bash {"command":"npm test"}',
      "[moved out: bash output: exit 1 · recover m7#/blocks/4]",
      "[image image/png]",
      '{"type":"x-future","n":1}',
      "$ npm test",
    ]);
  });

  it("display: thinking marked as such, markers with a hash prefix, no role line", () => {
    expect(displayText(message).split("\n")).toEqual([
      "Running the tests.",
      "(thinking) they failed yesterday",
      '→ bash {"command":"npm test"}',
      `[moved out: bash output: exit 1 · m7#/blocks/4 · sha256 ${"ab".repeat(6)}…]`,
      "[image image/png]",
      '{"type":"x-future","n":1}',
    ]);
  });
});
