/**
 * The generated test model on disk for the local reader's tests: written
 * once per content (the file name carries its hash), so suites share it.
 */
import { createHash } from "node:crypto";
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_MODEL_SHAPE, writeTestModel, type TestModelShape } from "../../core/checkride/local-model/test-model.ts";

export function testModelPath(shape: TestModelShape = TEST_MODEL_SHAPE): string {
  const bytes = writeTestModel(shape);
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
  const path = join(tmpdir(), `session-inspector-test-model-${hash}.gguf`);
  if (!existsSync(path)) {
    // Written aside and renamed, so a suite running beside this one never reads half a file.
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, bytes);
    renameSync(partial, path);
  }
  return path;
}
