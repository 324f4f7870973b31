/** The command line's flags, read the same way for every command that takes them (core/cli/flags.ts). */
import { describe, expect, it } from "vitest";
import { UsageError, leafFlag, parseArgs, readerFlags, strategyFlag, strategyList, wholeNumberFlag } from "../../core/cli/flags.ts";
import { STRATEGIES } from "../../core/strategies/index.ts";

const args = (...flags: string[]) => parseArgs(["cmd", "file", ...flags]);
const ALL = STRATEGIES.map((s) => s.name);

describe("wholeNumberFlag", () => {
  it("reads a whole number, absent is undefined", () => {
    expect(wholeNumberFlag(args("--jobs", "3"), "jobs", "threads", 1)).toBe(3);
    expect(wholeNumberFlag(args("--max-prose-characters", "0"), "max-prose-characters", "characters")).toBe(0);
    expect(wholeNumberFlag(args(), "jobs", "threads", 1)).toBeUndefined();
  });

  it.each([["0"], ["-1"], ["2.5"], ["1e3"], ["three"]])("refuses --jobs %s with the unit and the minimum", (value) => {
    expect(() => wholeNumberFlag(args("--jobs", value), "jobs", "threads", 1)).toThrow(new UsageError("--jobs takes a whole number of threads (1 or more)"));
  });

  it("without a minimum, says no minimum", () => {
    expect(() => wholeNumberFlag(args("--max-prose-characters", "x"), "max-prose-characters", "characters")).toThrow(
      new UsageError("--max-prose-characters takes a whole number of characters"),
    );
  });
});

describe("strategies", () => {
  it("one strategy: the fallback, a known name, or the list of names", () => {
    expect(strategyFlag(args(), "transparent")).toBe("transparent");
    expect(strategyFlag(args("--strategy", "recorded"), "transparent")).toBe("recorded");
    expect(() => strategyFlag(args("--strategy", "nope"), "transparent")).toThrow(`unknown strategy "nope" (have: ${ALL.join(", ")})`);
  });

  it("several: all (less those left out), a comma list with spaces, or the first unknown name", () => {
    expect(strategyList(args(), "all")).toEqual(ALL);
    expect(strategyList(args("--strategy", "all"), "transparent", ["recorded"])).toEqual(ALL.filter((n) => n !== "recorded"));
    expect(strategyList(args("--strategy", "transparent, recorded"), "all")).toEqual(["transparent", "recorded"]);
    expect(() => strategyList(args("--strategy", "transparent,nope"), "all")).toThrow(`unknown strategy "nope" (have: ${ALL.join(", ")}, all)`);
  });
});

describe("reader and endpoint", () => {
  it("literal by default, needing no endpoint", () => {
    expect(readerFlags(args())).toEqual({ reader: "literal", endpoint: undefined });
  });

  it("endpoint with --endpoint and --model; either alone, or an unknown reader, is refused", () => {
    expect(readerFlags(args("--reader", "endpoint", "--endpoint", "http://127.0.0.1:1", "--model", "m"))).toMatchObject({
      reader: "endpoint",
      endpoint: { url: "http://127.0.0.1:1", model: "m" },
    });
    expect(() => readerFlags(args("--reader", "endpoint"))).toThrow("--reader endpoint needs --endpoint URL and --model NAME");
    expect(() => readerFlags(args("--endpoint", "http://127.0.0.1:1"))).toThrow("--endpoint and --model go together");
    expect(() => readerFlags(args("--reader", "guess"))).toThrow('unknown reader "guess" (literal, endpoint or local)');
  });

  it("local with --model PATH (a file, not a name) and an optional --context-size; without --endpoint", () => {
    expect(readerFlags(args("--reader", "local", "--model", "m.gguf", "--context-size", "2048"))).toEqual({
      reader: "local",
      endpoint: undefined,
      local: { modelPath: "m.gguf", contextSize: 2048 },
    });
    expect(() => readerFlags(args("--reader", "local"))).toThrow("--reader local needs --model PATH.gguf");
    expect(() => readerFlags(args("--reader", "local", "--model", "m.gguf", "--endpoint", "http://127.0.0.1:1"))).toThrow("leave out --endpoint");
    expect(() => readerFlags(args("--reader", "local", "--model", "m.gguf", "--context-size", "big"))).toThrow("--context-size takes a whole number of tokens");
  });
});

describe("leafFlag", () => {
  const session = { byId: new Map<string, unknown>([["a", {}]]) };
  it("null without --leaf, the id when the session has it, refused otherwise", () => {
    expect(leafFlag(args(), session)).toBeNull();
    expect(leafFlag(args("--leaf", "a"), session)).toBe("a");
    expect(() => leafFlag(args("--leaf", "b"), session)).toThrow('no entry with id "b"');
  });
});
