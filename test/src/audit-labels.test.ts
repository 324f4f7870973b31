/** The audit's words for the figures a file states (labels.ts), shared by the timeline, the dividers and the dropped panel. */
import { describe, expect, it } from "vitest";
import { fileTokensText, kindLabel } from "../../src/components/audit/labels.ts";

describe("the file's own token figures of a compaction", () => {
  it("before → after as the file states them; 'not stated' where it gives no after; null where it gives neither", () => {
    expect(fileTokensText("claude-compact", 176700, null)).toBe("the file's tokens 176,700 → not stated");
    expect(fileTokensText("pi-compaction", 48210, 12000)).toBe("the file's tokens 48,210 → 12,000");
    expect(fileTokensText("codex-compacted", null, null)).toBeNull();
  });
  it("a Claude Code microcompact's figures are said to be its own count, not the context's size", () => {
    expect(fileTokensText("claude-microcompact", 78208, 39673)).toBe("the file's tokens 78,208 → 39,673 (the microcompact's own count, not the context's size)");
  });
  it("every kind has plain words", () => {
    expect(kindLabel("claude-microcompact")).toBe("microcompact (old tool outputs cleared)");
    expect(kindLabel("copilot-truncation")).toContain("Copilot truncation");
  });
});
