/**
 * `checkride --reader local` end to end: the project's generated GGUF model
 * (random weights: the answers are noise) loaded by node-llama-cpp, prompted
 * per probe, its tokens graded. The mechanism, timings and errors are
 * checked, never scores. Each unusable model file gets one clear error.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync, ftruncateSync, writeSync } from "node:fs";
import { tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_MODEL_SHAPE } from "../../core/checkride/local-model/test-model.ts";
import { runCli } from "../helpers/cli.ts";
import { describeWithFixtures, fixturePath } from "../helpers/fixtures.ts";
import { testModelPath } from "../helpers/test-model.ts";

const temp = mkdtempSync(join(tmpdir(), "si-local-"));
const SESSION = () => fixturePath("composed/pi-v3-tree.jsonl");

describeWithFixtures("checkride --reader local", () => {
  it("--json: a result per probe with status, verdict and time; the model's name, quantization, window and runtime beside the score", () => {
    const { status, stdout, stderr } = runCli(["checkride", SESSION(), "--strategy", "transparent", "--reader", "local", "--model", testModelPath(), "--json"]);
    expect(stderr).toMatch(/transparent: probe 1\/5 \([\d,]+ prompt tokens, [\d.]+ s\)/);
    expect(status).toBe(0);
    const [result] = JSON.parse(stdout).results;
    expect(result).toMatchObject({
      strategy: "transparent",
      reader: "local",
      model: {
        name: "session-inspector test model (random weights)",
        quantization: "F32",
        contextSize: TEST_MODEL_SHAPE.contextLength,
        runtime: expect.stringMatching(/^node-llama-cpp 3\.21\.1 \(CPU\), \d+ threads?$/),
      },
    });
    const graded = result.probes.filter((p: { status: string }) => p.status === "pass" || p.status === "fail");
    expect(graded.length).toBe(5);
    for (const probe of graded) {
      expect(["correct", "dont-know", "wrong"]).toContain(probe.verdict);
      expect(probe.ms).toBeGreaterThan(0);
      expect(typeof probe.answer).toBe("string");
    }
    const counts = result.verdicts;
    expect(counts.correct + counts["dont-know"] + counts.wrong).toBe(5);
    expect(result.passed).toBe(counts.correct);
  });

  it("report --reader local: the scorecard names the model and counts its verdicts per strategy", () => {
    const { status, stdout } = runCli(["report", SESSION(), "--strategy", "transparent", "--reader", "local", "--model", testModelPath(), "--format", "md"]);
    expect(status).toBe(0);
    expect(stdout).toContain("### Checkride (answered correctly by session-inspector test model (random weights) (F32, 4,096-token window, node-llama-cpp 3.21.1 (CPU)");
    expect(stdout).toMatch(/\| score \| verdicts \|/);
    expect(stdout).toMatch(/\| transparent \|.*\| \d\/5 \| \d correct, \d don't know, \d confidently wrong \|/);
  });

  it("audit --reader local grades each recorded compaction with the model", () => {
    const { status, stdout } = runCli(["audit", fixturePath("composed/codex-modern-compacted.jsonl"), "--reader", "local", "--model", testModelPath(), "--json"]);
    expect(status).toBe(0);
    const { compactions } = JSON.parse(stdout);
    expect(compactions.length).toBeGreaterThan(0);
    for (const row of compactions) {
      const v = row.verdicts;
      expect(v.correct + v["dont-know"] + v.wrong).toBeLessThanOrEqual(row.facts.asked);
    }
  });

  it("a model with a window smaller than the context: inconclusive, 'does not fit', never a fail", () => {
    const small = testModelPath({ ...TEST_MODEL_SHAPE, contextLength: 1024 });
    const { status, stdout } = runCli([
      "checkride",
      fixturePath("pi/badlogic__pi-mono__before-compaction.jsonl"),
      "--strategy",
      "transparent",
      "--reader",
      "local",
      "--model",
      small,
      "--json",
    ]);
    expect(status).toBe(0);
    const [result] = JSON.parse(stdout).results;
    expect(result.asked).toBe(0);
    for (const probe of result.probes.filter((p: { status: string }) => p.status !== "skipped")) {
      expect(probe.status).toBe("inconclusive");
      expect(probe.note).toMatch(/^does not fit in 1,024 tokens/);
    }
  });
});

describe("checkride --reader local: unusable model files", () => {
  const session = join(temp, "chat.json");
  writeFileSync(
    session,
    JSON.stringify([
      { role: "user", content: "Edit src/a.ts." },
      { role: "assistant", content: "Done." },
    ]),
  );
  const run = (...args: string[]) => runCli(["checkride", session, "--strategy", "transparent", "--reader", "local", ...args]);

  it("needs --model PATH.gguf", () => {
    const { status, stderr } = run();
    expect(status).toBe(2);
    expect(stderr).toMatch(/--reader local needs --model PATH\.gguf/);
  });

  it("a file that is not GGUF says what it starts with", () => {
    const notModel = join(temp, "notes.gguf");
    writeFileSync(notModel, "hello, this is text");
    const { status, stderr } = run("--model", notModel);
    expect(status).toBe(2);
    expect(stderr.trim()).toBe(`error: ${notModel}:0: not a GGUF model file (it starts with "hell", not "GGUF")`);
  });

  it("a damaged GGUF (cut short) is llama.cpp's refusal in one line", () => {
    const cut = join(temp, "cut.gguf");
    writeFileSync(cut, readFileSync(testModelPath()).subarray(0, 4000));
    const { status, stderr } = run("--model", cut);
    expect(status).toBe(2);
    expect(stderr).toMatch(/^error: .*cut\.gguf:0: llama\.cpp cannot load it \(a damaged or unsupported GGUF file\?\)/);
    expect(stderr.trim().split("\n")).toHaveLength(1);
  });

  it("a file larger than this machine's memory is refused before it is read", () => {
    const huge = join(temp, "huge.gguf");
    const fd = openSync(huge, "w");
    writeSync(fd, Buffer.from([0x47, 0x47, 0x55, 0x46, 3, 0, 0, 0]));
    ftruncateSync(fd, totalmem() + 2 ** 30); // sparse: no disk is used
    closeSync(fd);
    const { status, stderr } = run("--model", huge);
    expect(status).toBe(2);
    expect(stderr).toMatch(/is larger than this machine's memory/);
  });

  it("a model trained on a window too small for the checkride", () => {
    const { status, stderr } = run("--model", testModelPath({ ...TEST_MODEL_SHAPE, contextLength: 512 }));
    expect(status).toBe(2);
    expect(stderr).toMatch(/the model's window is 512 tokens; the checkride needs at least 1024/);
  });
});
