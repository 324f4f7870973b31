/** The tokenizer, the per-message cache, the fallback, and the one composition. */
import { describe, expect, it } from "vitest";
import type { Message } from "../../../core/model.ts";
import { composition, tokenStats } from "../../../core/composition.ts";
import {
  CHARS_QUARTER,
  O200K,
  TOKENIZER_LABEL,
  carrySummedStarts,
  contextTokens,
  countInSlices,
  isTokenCountCached,
  loadTokenizer,
  messageTokens,
  tokenizerLoaded,
  type Tokenizer,
} from "../../../core/tokens.ts";

// The o200k table is imported on first need (core/tokens.ts); these tests count with it.
await loadTokenizer();

const msg = (id: string, role: Message["role"], blocks: Message["blocks"], meta: Record<string, unknown> = {}): Message => ({ id, role, meta, blocks });

describe("o200k token counts", () => {
  it("come from a table imported on first need, not at start", () => {
    expect(tokenizerLoaded()).toBe(true);
  });

  it("counts as o200k_base does (figures from OpenAI's tokenizer for these strings)", () => {
    expect(O200K.count("hello world")).toBe(2);
    expect(O200K.count("")).toBe(0);
    expect(O200K.label).toBe(TOKENIZER_LABEL);
    expect(TOKENIZER_LABEL).toBe("o200k tokens; Claude's own tokenizer differs by a few percent");
  });

  it("reads special-token text in a session as plain text instead of throwing", () => {
    expect(O200K.count("<|endoftext|>")).toBeGreaterThan(1);
  });

  it("the named fallback is characters ÷ 4, rounded up", () => {
    expect(CHARS_QUARTER.count("abcde")).toBe(2);
    expect(CHARS_QUARTER.label).toMatch(/characters ÷ 4/);
  });
});

describe("per-message counts", () => {
  const counting = (): Tokenizer & { calls: number } => {
    const tokenizer = { name: "chars/4" as const, label: "test", calls: 0, count: (text: string) => (tokenizer.calls++, text.length) };
    return tokenizer;
  };

  it("are cached by message object: a second count of the same context tokenizes nothing", () => {
    const tokenizer = counting();
    const messages = [msg("a", "user", [{ type: "text", text: "four" }]), msg("b", "assistant", [{ type: "text", text: "six ok" }])];
    expect(contextTokens(messages, "pi", tokenizer).total).toBe(10);
    const calls = tokenizer.calls;
    expect(contextTokens(messages, "pi", tokenizer).total).toBe(10);
    expect(tokenizer.calls).toBe(calls);
    expect(messageTokens(messages[0]!, "pi", tokenizer)).toBe(messageTokens(messages[0]!, "pi", tokenizer));
  });

  it("count the model's view only: metadata adds nothing, opaque content is bytes not tokens", () => {
    const bare = msg("a", "toolResult", [{ type: "text", text: "ok" }]);
    const heavy = msg("b", "toolResult", [{ type: "text", text: "ok" }], { record: { toolUseResult: { stdout: "x".repeat(10_000) } }, usage: { input_tokens: 5 } });
    expect(messageTokens(heavy, "claude").total).toBe(messageTokens(bare, "claude").total);
    const image = msg("c", "user", [{ type: "image", mimeType: "image/png", data: "A".repeat(800) }]);
    expect(messageTokens(image, "claude")).toMatchObject({ total: 0, opaqueBytes: 600 });
  });
});

describe("the one composition", () => {
  const context = [
    msg("u", "user", [{ type: "text", text: "hello world" }]),
    msg("a", "assistant", [
      { type: "text", text: "hello" },
      { type: "toolCall", id: "t1", name: "read", arguments: { path: "a.ts" } },
    ]),
    msg("r", "toolResult", [{ type: "text", text: "hello world hello world" }]),
  ];

  it("splits a context by view category, in tokens, largest first, summing to the context's count", () => {
    const parts = composition(context, "pi");
    expect(parts.map((p) => p.category)).toEqual(["toolCalls", "toolOutput", "userProse", "assistantProse"]);
    expect(parts.find((p) => p.category === "userProse")).toEqual({ category: "userProse", label: "user prose", tokens: 2, chars: 11, estimated: 0 });
    expect(parts.find((p) => p.category === "assistantProse")?.tokens).toBe(1);
    expect(parts.reduce((sum, p) => sum + p.tokens, 0)).toBe(contextTokens(context, "pi").total);
  });

  it("token stats count the branch and the active view by the same rule", () => {
    const active = [
      context[0]!,
      context[1]!,
      msg("r", "toolResult", [{ type: "omitted", recoveryId: "r#/blocks", sha256: "0".repeat(64), bytes: 40, kind: "toolResult", label: "read output" }]),
    ];
    const stats = tokenStats(context, active, "pi");
    expect(stats.originalTokens).toBe(contextTokens(context, "pi").total);
    expect(stats.activeTokens).toBe(contextTokens(active, "pi").total);
    expect(stats.activeTokens).not.toBe(stats.originalTokens);
  });
});

describe("counting on a clock", () => {
  const fresh = () => [msg("u", "user", [{ type: "text", text: "hello world, again and again" }]), msg("a", "assistant", [{ type: "text", text: "fine" }])];

  it("past its deadline, a context's uncounted messages are estimated as chars ÷ 4 and said to be", () => {
    const context = fresh();
    const late = contextTokens(context, "pi", O200K, -1);
    expect(late.estimated).toBe(late.total);
    expect(late.total).toBe(Math.ceil(28 / 4) + Math.ceil(4 / 4));
    expect(late.estimatedByCategory).toEqual({ userProse: 7, assistantProse: 1 });
    // Without a deadline the tokenizer counts them, and nothing is estimated.
    const exact = contextTokens(context, "pi");
    expect(exact.estimated).toBe(0);
    expect(exact.total).toBe(O200K.count("hello world, again and again") + O200K.count("fine"));
  });

  it("messages already counted stay exact even past the deadline (the cache finishes the job over time)", () => {
    const context = fresh();
    messageTokens(context[0]!, "pi");
    const mixed = contextTokens(context, "pi", O200K, -1);
    expect(mixed.estimated).toBe(1);
    expect(composition(context, "pi", { budgetMs: -1 }).find((p) => p.category === "assistantProse")?.estimated).toBe(1);
  });

  it("countInSlices yields between slices and resolves to the exact count", async () => {
    const context = Array.from({ length: 50 }, (_, i) => msg(`m${i}`, "user", [{ type: "text", text: `message number ${i}` }]));
    let ticked = false;
    setTimeout(() => (ticked = true), 0);
    const tokens = await countInSlices(context, "pi", { sliceMs: 0 });
    expect(ticked).toBe(true);
    expect(tokens.estimated).toBe(0);
    expect(tokens.total).toBe(contextTokens(context, "pi").total);
  });
});

describe("a long context summed from the start it shares with one summed before", () => {
  /** The sum without any memory: each message's cached count, added in order. */
  const plainSum = (messages: readonly Message[]) => {
    const sum = { total: 0, chars: 0, byCategory: {} as Record<string, number> };
    for (const message of messages) {
      const tokens = messageTokens(message, "pi");
      sum.total += tokens.total;
      sum.chars += tokens.chars;
      for (const [category, count] of Object.entries(tokens.byCategory)) sum.byCategory[category] = (sum.byCategory[category] ?? 0) + count!;
    }
    return sum;
  };
  const message = (i: number): Message =>
    i % 3 === 0
      ? msg(`m${i}`, "user", [{ type: "text", text: `request ${i}: fix the parser` }])
      : i % 3 === 1
        ? msg(`m${i}`, "assistant", [{ type: "toolCall", id: `c${i}`, name: "bash", arguments: { command: `npm test -- ${i}` } }])
        : msg(`m${i}`, "toolResult", [{ type: "text", text: `ok ${i} `.repeat(i % 7) }], { toolCallId: `c${i - 1}` });

  it("gives what summing every message gives: grown, its end replaced, shortened, and in another order", () => {
    const first = Array.from({ length: 3000 }, (_, i) => message(i));
    const check = (messages: Message[]) => expect(contextTokens(messages, "pi")).toMatchObject(plainSum(messages));
    check(first);
    // Grown at the end (a followed branch), then its last messages replaced by new objects (a streamed line merged).
    const grown = [...first, ...Array.from({ length: 500 }, (_, i) => message(3000 + i))];
    check(grown);
    const replaced = [...grown.slice(0, -10), ...grown.slice(-10).map((m) => ({ ...m, blocks: [...m.blocks, { type: "text" as const, text: "more" }] }))];
    check(replaced);
    // Shorter than the start kept, and the same messages in another order: summed whole.
    check(first.slice(0, 2500));
    check([first[1]!, first[0]!, ...first.slice(2)]);
    // The same array twice.
    check(replaced);
  });

  it("a context read again as other objects takes the sums kept for the first (carrySummedStarts): its start is not counted again", () => {
    const opened = Array.from({ length: 3000 }, (_, i) => message(10_000 + i));
    const total = contextTokens(opened, "pi").total;
    // The same messages as other objects, their counts not handed over: only a carried sum can spare counting them.
    const readAgain = opened.map((m) => ({ ...m, blocks: [...m.blocks] }));
    carrySummedStarts(opened, readAgain);
    const grown = [...readAgain, message(20_000)];
    expect(contextTokens(grown, "pi").total).toBe(total + messageTokens(message(20_000), "pi").total);
    expect(isTokenCountCached(readAgain[0]!, "pi")).toBe(false);
    // The tail a start leaves out is counted.
    expect(isTokenCountCached(readAgain.at(-1)!, "pi")).toBe(true);
  });
});
