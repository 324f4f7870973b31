/**
 * `npm run test-model -- OUT.gguf`: writes the project's tiny test model
 * (core/checkride/local-model/test-model.ts: llama architecture, 2 layers,
 * random weights from a fixed seed), the same bytes every run, and prints
 * its size and SHA-256. Its answers are noise: it is for testing the local
 * reader's mechanism, never for a score.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { writeTestModel } from "../core/checkride/local-model/test-model.ts";

const out = process.argv[2];
if (!out) {
  console.error("usage: npm run test-model -- OUT.gguf");
  process.exit(2);
}
const bytes = writeTestModel();
writeFileSync(out, bytes);
console.log(`${out}: ${bytes.length.toLocaleString("en-US")} bytes, sha256 ${createHash("sha256").update(bytes).digest("hex")}`);
