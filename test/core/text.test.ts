/** Shortening a text: where the cut falls and how it is marked. */
import { describe, expect, it } from "vitest";
import { oneLine, truncate } from "../../core/text.ts";

describe("truncate", () => {
  it("leaves a text of at most max characters alone", () => {
    expect(truncate("abcde", 5)).toBe("abcde");
  });
  it("cuts a longer one to max characters, the last being the ellipsis", () => {
    expect(truncate("abcdef", 5)).toBe("abcd…");
    expect(truncate("abcdef", 5)).toHaveLength(5);
  });
});

describe("oneLine", () => {
  it("folds every run of white space, newlines included, into one space and trims the ends", () => {
    expect(oneLine("  npm\n\n  test\t--run  ", 100)).toBe("npm test --run");
  });
  it("cuts after folding, so the limit counts what is shown", () => {
    expect(oneLine("a\n\n\n\nbcdef", 5)).toBe("a bc…");
  });
});
