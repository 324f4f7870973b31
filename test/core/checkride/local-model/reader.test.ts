/** The local reader's mechanism with a stand-in model (no weights): one prompt per probe, honest limits, verdicts. */
import { describe, expect, it } from "vitest";
import { ANSWER_TOKENS, firstAnswer, localModelReader, localPrompt, type LocalModel } from "../../../../core/checkride/local-model/reader.ts";
import { buildProbes } from "../../../../core/checkride/probes.ts";
import { runCheckride } from "../../../../core/checkride/run.ts";
import { verdictOf } from "../../../../core/checkride/verdict.ts";
import type { Facts } from "../../../../core/checkride/facts.ts";
import type { Message } from "../../../../core/model.ts";

const facts: Facts = {
  modifiedFiles: ["src/ledger.ts"],
  readFiles: [],
  fileSources: {},
  anchors: [],
  rules: [],
  anchorCandidates: [],
  ruleCandidates: [],
  latestRequest: { text: "export negative amounts to CSV", messageId: "u1", source: { messageId: "u1", quote: "export negative amounts to CSV" } },
};
const active: Message[] = [{ id: "u1", role: "user", meta: {}, blocks: [{ type: "text", text: "export negative amounts to CSV; I edited src/ledger.ts" }] }];

/** A model that answers from a script, counting a token per 4 characters. */
function scripted(window: number, reply: (prompt: string) => string): LocalModel & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    prompts,
    identity: { name: "scripted", file: "scripted.gguf", quantization: "F32", contextSize: window, runtime: "test" },
    countTokens: (text) => Math.ceil(text.length / 4),
    async complete(prompt, maxTokens) {
      prompts.push(prompt);
      expect(maxTokens).toBe(ANSWER_TOKENS);
      return { text: reply(prompt), promptTokens: Math.ceil(prompt.length / 4), answerTokens: 5, ms: 7 };
    },
    async dispose() {},
  };
}

describe("the local reader", () => {
  it("asks each probe alone with the same template, and grades the answers with the one grader", async () => {
    const model = scripted(8192, (prompt) => (prompt.includes("Which files") ? " src/ledger.ts\nQuestion: what else?" : " I don't know."));
    const result = await runCheckride("transparent", active, active, { reader: "local", localModel: model }, facts);
    expect(model.prompts).toHaveLength(2);
    expect(model.prompts[0]).toBe(localPrompt("[user]\nexport negative amounts to CSV; I edited src/ledger.ts", "Which files were created or modified in this session?"));
    const files = result.probes.find((p) => p.id === "files")!;
    expect(files).toMatchObject({ status: "pass", answer: "src/ledger.ts", verdict: "correct", ms: 7 });
    expect(result.probes.find((p) => p.id === "intent")).toMatchObject({ status: "fail", verdict: "dont-know" });
    expect(result).toMatchObject({ reader: "local", model: { name: "scripted", contextSize: 8192 }, verdicts: { correct: 1, "dont-know": 1, wrong: 0 } });
    expect(result.scoreLabel).toBe("answered correctly by the local model");
  });

  it("a context longer than the window is inconclusive, 'does not fit in N tokens', never a fail, and the model is not asked", async () => {
    const model = scripted(200, () => "src/ledger.ts");
    const { answers } = await localModelReader(buildProbes(facts), "x".repeat(2000), model);
    expect(model.prompts).toEqual([]);
    expect(answers.files?.inconclusive).toMatch(/^does not fit in 200 tokens \(the context and question take \d+\)$/);
    const result = await runCheckride(
      "transparent",
      active,
      [{ ...active[0]!, blocks: [{ type: "text", text: "y".repeat(4000) }] }],
      { reader: "local", localModel: model },
      facts,
    );
    expect(result.probes.filter((p) => p.status === "inconclusive").map((p) => p.id)).toEqual(["files", "intent"]);
    expect(result.asked).toBe(0);
  });

  it("an answer ends where the model starts a question of its own", () => {
    expect(firstAnswer("  a.ts, b.ts\nQuestion: and c?\nAnswer: c.ts")).toBe("a.ts, b.ts");
  });

  it("verdicts: met is correct; saying it does not know (or nothing) is don't know; anything else asserted is confidently wrong", () => {
    expect(verdictOf(true, "src/a.ts")).toBe("correct");
    expect(verdictOf(false, "I don't know.")).toBe("dont-know");
    expect(verdictOf(false, "")).toBe("dont-know");
    expect(verdictOf(false, "src/other.ts")).toBe("wrong");
  });
});
