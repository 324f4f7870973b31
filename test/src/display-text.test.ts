import { describe, expect, it } from "vitest";
import { displayText } from "../../src/worker/projection.ts";

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
