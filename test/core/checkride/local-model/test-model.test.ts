/** The project's own GGUF test model: deterministic bytes, a valid GGUF v3 header, the llama keys llama.cpp needs. */
import { describe, expect, it } from "vitest";
import { TEST_MODEL_SHAPE, writeTestModel } from "../../../../core/checkride/local-model/test-model.ts";

/** Reads the GGUF header and metadata keys (strings and scalars; arrays skipped by their length). */
function readKeys(bytes: Uint8Array): { version: number; tensors: number; keys: Map<string, unknown> } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 4;
  const u32 = () => ((at += 4), view.getUint32(at - 4, true));
  const u64 = () => ((at += 8), Number(view.getBigUint64(at - 8, true)));
  const str = () => {
    const n = u64();
    at += n;
    return new TextDecoder().decode(bytes.subarray(at - n, at));
  };
  const SIZES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
  const scalar = (type: number): unknown => {
    if (type === 8) return str();
    const value = type === 6 ? view.getFloat32(at, true) : type === 7 ? view.getUint8(at) === 1 : view.getUint32(at, true);
    at += SIZES[type]!;
    return value;
  };
  const version = u32();
  const tensors = u64();
  const count = u64();
  const keys = new Map<string, unknown>();
  for (let i = 0; i < count; i++) {
    const key = str();
    const type = u32();
    if (type !== 9) {
      keys.set(key, scalar(type));
      continue;
    }
    const of = u32();
    const n = u64();
    for (let j = 0; j < n; j++) scalar(of);
    keys.set(key, `array of ${n}`);
  }
  return { version, tensors, keys };
}

describe("the generated test model", () => {
  const bytes = writeTestModel();

  it("is the same bytes every time, and a few hundred KB", () => {
    expect(Buffer.from(writeTestModel()).equals(Buffer.from(bytes))).toBe(true);
    expect(bytes.length).toBeGreaterThan(100_000);
    expect(bytes.length).toBeLessThan(5_000_000);
    expect(Buffer.from(writeTestModel({ ...TEST_MODEL_SHAPE, seed: 1 })).equals(Buffer.from(bytes))).toBe(false);
  });

  it("is GGUF v3 with the llama architecture, its shape and a byte-fallback vocabulary", () => {
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe("GGUF");
    const { version, tensors, keys } = readKeys(bytes);
    expect(version).toBe(3);
    expect(tensors).toBe(3 + 9 * TEST_MODEL_SHAPE.layers);
    expect(keys.get("general.architecture")).toBe("llama");
    expect(keys.get("llama.block_count")).toBe(TEST_MODEL_SHAPE.layers);
    expect(keys.get("llama.context_length")).toBe(TEST_MODEL_SHAPE.contextLength);
    expect(keys.get("tokenizer.ggml.model")).toBe("llama");
    expect(keys.get("tokenizer.ggml.tokens")).toMatch(/^array of \d+$/);
    expect(Number(String(keys.get("tokenizer.ggml.tokens")).split(" ").pop())).toBeGreaterThan(259); // unk, bos, eos and 256 bytes at least
  });
});
