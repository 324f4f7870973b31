/** Pane alignment: which rows hold the same source message, and which active rows are rewrites. */
import { describe, expect, it } from "vitest";
import type { Message } from "../../core/model.ts";
import { alignPanes } from "../../src/worker/alignment.ts";

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
