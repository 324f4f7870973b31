/**
 * The o200k table is imported on first need. Before it is there, an exact
 * count is an error (never a silent estimate), and a count on a clock (the
 * worker's first view) estimates everything, labelled, and starts the import.
 * Vitest gives each test file its own modules, so the table is not loaded here.
 */
import { describe, expect, it } from "vitest";
import { composition } from "../../../core/composition.ts";
import type { Message } from "../../../core/model.ts";
import { O200K, contextTokens, loadTokenizer, tokenizerLoaded } from "../../../core/tokens.ts";

const context: Message[] = [{ id: "u", role: "user", meta: {}, blocks: [{ type: "text", text: "hello world" }] }];

describe("before the tokenizer is loaded", () => {
  it("an exact count says the table is missing; a count on a clock estimates all of it and starts the import", async () => {
    expect(tokenizerLoaded()).toBe(false);
    expect(() => O200K.count("hello")).toThrow(/not loaded/);
    expect(() => contextTokens(context, "pi")).toThrow(/not loaded/);
    const parts = composition(context, "pi", { budgetMs: 1000 });
    expect(parts).toEqual([{ category: "userProse", label: "user prose", tokens: 3, chars: 11, estimated: 3 }]);
    await loadTokenizer();
    expect(tokenizerLoaded()).toBe(true);
    expect(composition(context, "pi", { budgetMs: 1000 })[0]).toMatchObject({ tokens: 2, estimated: 0 });
  });
});
