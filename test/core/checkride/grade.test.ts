/** The one grader over probe data: checks, the count needed, and the share arithmetic. */
import { describe, expect, it } from "vitest";
import { grade, outcomeFamily, required } from "../../../core/checkride/grade.ts";

describe("the grader", () => {
  it("a share asks for at least that share, rounded up", () => {
    expect(required(5, 0.5)).toBe(3);
    expect(required(5, 0.6)).toBe(3);
    expect(required(10, 0.8)).toBe(8);
    expect(required(3, 0.5)).toBe(2);
    expect(required(6, 0.5)).toBe(3);
  });

  it("applies every kind of check and counts what it met", () => {
    const grading = {
      checks: [
        { kind: "path" as const, item: "src/deep/parser.ts" },
        { kind: "verbatim" as const, item: "#318" },
        { kind: "token" as const, item: "lexer" },
        { kind: "tokens" as const, item: "never rename exported helpers", share: 0.6, word: "never" },
        { kind: "outcome" as const, item: "pass" as const },
      ],
      need: 4,
    };
    expect(grade(grading, "parser.ts, #318, the lexer; never rename exported helpers; it passed")).toEqual({
      pass: true,
      matched: ["src/deep/parser.ts", "#318", "lexer", "never rename exported helpers", "pass"],
    });
    expect(grade(grading, "parser.ts, #318; rename exported helpers; it failed").pass).toBe(false); // 2 of 5: no rule word, wrong outcome, no lexer
    expect(grade(grading, "I don't know: parser.ts #318 lexer passed")).toEqual({ pass: false, matched: [] });
    expect(grade({ checks: [], need: 0 }, "anything").pass).toBe(false);
  });

  it("the last outcome word decides", () => {
    expect(outcomeFamily("failed at first, then passed")).toBe("pass");
    expect(outcomeFamily("passed locally but CI failed")).toBe("fail");
    expect(outcomeFamily("exited with code 2")).toBe("fail");
    expect(outcomeFamily("no idea")).toBeUndefined();
  });
});
