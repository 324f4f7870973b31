/**
 * `npm run bench:local-model [MODEL.gguf]`: how fast the local reader runs a
 * model in the CLI (node-llama-cpp, this machine's cores): prompt tokens per
 * second (reading the context, most of a probe's time) and answer tokens per
 * second, for the project's generated test model by default or for the
 * model file given, so a user can predict the time on their own model:
 * a probe costs about (context tokens ÷ prompt rate) + (answer tokens ÷
 * answer rate), and later probes of the same context reuse its evaluation.
 * A benchmark, not a test: it prints figures and asserts nothing.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { loadLocalModel } from "../core/cli/local-model.ts";
import { writeTestModel } from "../core/checkride/local-model/test-model.ts";

const given = process.argv[2];
const path = given ?? join(tmpdir(), "session-inspector-bench-model.gguf");
if (!given) writeFileSync(path, writeTestModel());

const model = await loadLocalModel(path);
console.log(`model: ${model.identity.name} (${model.identity.quantization}, ${model.identity.contextSize}-token window, ${model.identity.runtime})`);
const words = "the test run failed in src/ledger.ts with error TS2305; rerun npm test before the commit. ";
for (const target of [512, 2048, Math.min(6000, model.identity.contextSize - 200)]) {
  let prompt = "";
  while ((await model.countTokens(prompt)) < target) prompt += words;
  // A fresh prefix each row: a repeated one would be reused from the cache and measure nothing.
  prompt = `${target}: ${prompt}`;
  const reply = await model.complete(prompt, 32);
  const promptRate = (reply.promptTokens / reply.ms) * 1000;
  console.log(
    `prompt ${reply.promptTokens.toString().padStart(5)} tokens + answer ${reply.answerTokens.toString().padStart(3)} tokens: ${reply.ms.toString().padStart(6)} ms  (≥ ${Math.round(promptRate).toLocaleString("en-US")} prompt tokens/s overall)`,
  );
}
await model.dispose();
