import { describe, expect, it } from "vitest";
import type { Message } from "../../core/model.ts";
import { buildPaneModel, displayText, projectRow } from "../../src/worker/projection.ts";

describe("displayText (the panes' view of a text, never the stored payload)", () => {
  it("removes ANSI colour and cursor sequences", () => {
    expect(displayText("\u001b[31merror\u001b[0m: \u001b[1mfailed\u001b[22m\u001b[2K")).toBe("error: failed");
    expect(displayText("\u001b]0;title\u0007done")).toBe("done");
  });
  it("shows legacy literal \\n as line breaks only when the text has no real one", () => {
    expect(displayText("line one\\nline two\\r\\nthree")).toBe("line one\nline two\nthree");
    expect(displayText("real\nbreak and a literal \\n in code")).toBe("real\nbreak and a literal \\n in code");
  });
  it("leaves plain text alone", () => {
    expect(displayText("plain")).toBe("plain");
  });
});

describe("a row's text preview", () => {
  it("starts at the first line with words: blank lines before it are not previewed, the text itself is kept", () => {
    const message: Message = { id: "a1", role: "assistant", meta: {}, blocks: [{ type: "text", text: "\n\n  \nLet me check what is happening.\n\nThen fix it." }] };
    const model = buildPaneModel([message]);
    const row = projectRow(model, 0, 0, false);
    const block = row.blocks[0]!;
    expect(block.type === "text" && block.preview).toBe("Let me check what is happening.\n\nThen fix it.");
    expect(block.type === "text" && block.lines).toBe(3);
    expect(model.messages[0]!.blocks[0]).toEqual(message.blocks[0]);
  });
});
