/**
 * A tiny, valid GGUF model the project writes itself, so the local reader is
 * tested end to end without real weights: the llama architecture with a
 * handful of layers, a SentencePiece-style vocabulary (byte tokens, so any
 * text tokenizes), and random F32 weights from a fixed seed. Its answers are
 * noise; what it proves is the mechanism: load, prompt, tokens back, grade.
 *
 * GGUF v3 (ggml's docs/gguf.md): magic, version, tensor and key counts, the
 * metadata keys, the tensor infos, then each tensor's data at an offset
 * aligned to 32 bytes.
 */

export interface TestModelShape {
  embedding: number;
  layers: number;
  feedForward: number;
  heads: number;
  contextLength: number;
  seed: number;
}

export const TEST_MODEL_SHAPE: TestModelShape = { embedding: 64, layers: 2, feedForward: 128, heads: 4, contextLength: 4096, seed: 20261204 };

const ALIGNMENT = 32;
const enum ValueType {
  Uint32 = 4,
  Int32 = 5,
  Float32 = 6,
  Bool = 7,
  String = 8,
  Array = 9,
}
const GGML_F32 = 0;
/** SentencePiece token kinds as llama.cpp reads them. */
const TOKEN_NORMAL = 1;
const TOKEN_UNKNOWN = 2;
const TOKEN_CONTROL = 3;
const TOKEN_BYTE = 6;

type Value =
  | { type: ValueType.Uint32 | ValueType.Int32 | ValueType.Float32; value: number }
  | { type: ValueType.Bool; value: boolean }
  | { type: ValueType.String; value: string }
  | { type: ValueType.Array; of: ValueType.String; values: string[] }
  | { type: ValueType.Array; of: ValueType.Float32 | ValueType.Int32; values: number[] };

/** The vocabulary: unknown, BOS, EOS, the 256 byte tokens, then common pieces (so text is not all bytes). */
function vocabulary(): { tokens: string[]; types: number[]; scores: number[] } {
  const tokens = ["<unk>", "<s>", "</s>"];
  const types = [TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_CONTROL];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(TOKEN_BYTE);
  }
  const pieces = ["▁"];
  for (let c = 33; c < 127; c++) pieces.push(String.fromCharCode(c));
  for (const word of ["the", "a", "file", "test", "run", "error", "src", "pass", "fail", "rule", "I", "don't", "know"]) pieces.push(`▁${word}`);
  for (const piece of pieces) {
    tokens.push(piece);
    types.push(TOKEN_NORMAL);
  }
  // Longer pieces score higher, so the tokenizer prefers them over single characters.
  const scores = tokens.map((t, i) => (types[i] === TOKEN_NORMAL ? -1000 + t.length : 0));
  return { tokens, types, scores };
}

/** A deterministic PRNG (mulberry32): the same seed writes the same bytes. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Tensor {
  name: string;
  /** ggml order: the fastest-varying dimension first. */
  dims: number[];
  fill: "ones" | "random";
}

function tensorsOf(shape: TestModelShape, vocab: number): Tensor[] {
  const { embedding: e, feedForward: ff } = shape;
  const tensors: Tensor[] = [
    { name: "token_embd.weight", dims: [e, vocab], fill: "random" },
    { name: "output_norm.weight", dims: [e], fill: "ones" },
    { name: "output.weight", dims: [e, vocab], fill: "random" },
  ];
  for (let i = 0; i < shape.layers; i++) {
    tensors.push(
      { name: `blk.${i}.attn_norm.weight`, dims: [e], fill: "ones" },
      { name: `blk.${i}.attn_q.weight`, dims: [e, e], fill: "random" },
      { name: `blk.${i}.attn_k.weight`, dims: [e, e], fill: "random" },
      { name: `blk.${i}.attn_v.weight`, dims: [e, e], fill: "random" },
      { name: `blk.${i}.attn_output.weight`, dims: [e, e], fill: "random" },
      { name: `blk.${i}.ffn_norm.weight`, dims: [e], fill: "ones" },
      { name: `blk.${i}.ffn_gate.weight`, dims: [e, ff], fill: "random" },
      { name: `blk.${i}.ffn_up.weight`, dims: [e, ff], fill: "random" },
      { name: `blk.${i}.ffn_down.weight`, dims: [ff, e], fill: "random" },
    );
  }
  return tensors;
}

class Writer {
  private chunks: Uint8Array[] = [];
  length = 0;
  private readonly encoder = new TextEncoder();

  bytes(data: Uint8Array): void {
    this.chunks.push(data);
    this.length += data.length;
  }
  private view(size: number, write: (view: DataView) => void): void {
    const buffer = new Uint8Array(size);
    write(new DataView(buffer.buffer));
    this.bytes(buffer);
  }
  u32(value: number): void {
    this.view(4, (v) => v.setUint32(0, value, true));
  }
  i32(value: number): void {
    this.view(4, (v) => v.setInt32(0, value, true));
  }
  u64(value: number): void {
    this.view(8, (v) => v.setBigUint64(0, BigInt(value), true));
  }
  f32(value: number): void {
    this.view(4, (v) => v.setFloat32(0, value, true));
  }
  string(value: string): void {
    const encoded = this.encoder.encode(value);
    this.u64(encoded.length);
    this.bytes(encoded);
  }
  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    if (pad > 0) this.bytes(new Uint8Array(pad));
  }
  value(value: Value): void {
    this.u32(value.type);
    if (value.type === ValueType.String) return this.string(value.value);
    if (value.type === ValueType.Bool) return this.bytes(new Uint8Array([value.value ? 1 : 0]));
    if (value.type === ValueType.Array) {
      this.u32(value.of);
      this.u64(value.values.length);
      if (value.of === ValueType.String) for (const s of value.values as string[]) this.string(s);
      else for (const n of value.values as number[]) value.of === ValueType.Float32 ? this.f32(n) : this.i32(n);
      return;
    }
    if (value.type === ValueType.Float32) this.f32(value.value);
    else if (value.type === ValueType.Int32) this.i32(value.value);
    else this.u32(value.value);
  }
  concat(): Uint8Array {
    const out = new Uint8Array(this.length);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}

/** The model's bytes: the same for the same shape. */
export function writeTestModel(shape: TestModelShape = TEST_MODEL_SHAPE): Uint8Array {
  const vocab = vocabulary();
  const u32 = (value: number): Value => ({ type: ValueType.Uint32, value });
  const metadata: [string, Value][] = [
    ["general.architecture", { type: ValueType.String, value: "llama" }],
    ["general.name", { type: ValueType.String, value: "session-inspector test model (random weights)" }],
    ["general.file_type", u32(0)],
    ["llama.context_length", u32(shape.contextLength)],
    ["llama.embedding_length", u32(shape.embedding)],
    ["llama.block_count", u32(shape.layers)],
    ["llama.feed_forward_length", u32(shape.feedForward)],
    ["llama.attention.head_count", u32(shape.heads)],
    ["llama.attention.head_count_kv", u32(shape.heads)],
    ["llama.rope.dimension_count", u32(shape.embedding / shape.heads)],
    ["llama.attention.layer_norm_rms_epsilon", { type: ValueType.Float32, value: 1e-5 }],
    ["llama.vocab_size", u32(vocab.tokens.length)],
    ["tokenizer.ggml.model", { type: ValueType.String, value: "llama" }],
    ["tokenizer.ggml.tokens", { type: ValueType.Array, of: ValueType.String, values: vocab.tokens }],
    ["tokenizer.ggml.scores", { type: ValueType.Array, of: ValueType.Float32, values: vocab.scores }],
    ["tokenizer.ggml.token_type", { type: ValueType.Array, of: ValueType.Int32, values: vocab.types }],
    ["tokenizer.ggml.unknown_token_id", u32(0)],
    ["tokenizer.ggml.bos_token_id", u32(1)],
    ["tokenizer.ggml.eos_token_id", u32(2)],
    ["tokenizer.ggml.add_bos_token", { type: ValueType.Bool, value: true }],
  ];
  const tensors = tensorsOf(shape, vocab.tokens.length);
  const sizes = tensors.map((t) => t.dims.reduce((a, b) => a * b, 1) * 4);

  const out = new Writer();
  out.bytes(new TextEncoder().encode("GGUF"));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(metadata.length);
  for (const [key, value] of metadata) {
    out.string(key);
    out.value(value);
  }
  let offset = 0;
  tensors.forEach((tensor, i) => {
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(GGML_F32);
    out.u64(offset);
    offset += Math.ceil(sizes[i]! / ALIGNMENT) * ALIGNMENT;
  });
  out.padTo(ALIGNMENT);

  const next = random(shape.seed);
  tensors.forEach((tensor, i) => {
    const values = new Float32Array(sizes[i]! / 4);
    // Small weights keep activations finite through the layers.
    for (let j = 0; j < values.length; j++) values[j] = tensor.fill === "ones" ? 1 : (next() - 0.5) * 0.2;
    out.bytes(new Uint8Array(values.buffer));
    out.padTo(ALIGNMENT);
  });
  return out.concat();
}
