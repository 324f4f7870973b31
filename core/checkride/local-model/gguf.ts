/**
 * What the local readers check in a model file before llama.cpp reads it,
 * and the names of its quantizations: one implementation for the CLI
 * (node-llama-cpp) and the app (llama.cpp in WebAssembly).
 */

/** The window the checkride needs at the least: the instructions, a small context and an answer. */
export const MIN_WINDOW = 1024;
/** The window used unless the user says otherwise: a real 1–3B model trained on 128k would allocate gigabytes for it. */
export const DEFAULT_WINDOW = 8192;

/** Why the first 8 bytes are not a GGUF file llama.cpp reads; null when they are. */
export function ggufHeaderProblem(head: Uint8Array): string | null {
  const magic = String.fromCharCode(...head.subarray(0, 4));
  if (head.length < 8 || magic !== "GGUF") return `not a GGUF model file (it starts with ${JSON.stringify(magic)}, not "GGUF")`;
  const version = new DataView(head.buffer, head.byteOffset, 8).getUint32(4, true);
  return version === 2 || version === 3 ? null : `GGUF version ${version}; llama.cpp reads versions 2 and 3`;
}

/** ggml's `general.file_type` (llama.h's llama_ftype) as people name quantizations. */
const FILE_TYPES: Record<number, string> = {
  0: "F32",
  1: "F16",
  2: "Q4_0",
  3: "Q4_1",
  7: "Q8_0",
  8: "Q5_0",
  9: "Q5_1",
  10: "Q2_K",
  11: "Q3_K_S",
  12: "Q3_K_M",
  13: "Q3_K_L",
  14: "Q4_K_S",
  15: "Q4_K_M",
  16: "Q5_K_S",
  17: "Q5_K_M",
  18: "Q6_K",
  19: "IQ2_XXS",
  20: "IQ2_XS",
  21: "Q2_K_S",
  22: "IQ3_XS",
  23: "IQ3_XXS",
  24: "IQ1_S",
  25: "IQ4_NL",
  26: "IQ3_S",
  27: "IQ3_M",
  28: "IQ2_S",
  29: "IQ2_M",
  30: "IQ4_XS",
  31: "IQ1_M",
  32: "BF16",
  36: "TQ1_0",
  37: "TQ2_0",
};

export function quantizationName(fileType: unknown): string {
  const type = typeof fileType === "string" && /^\d+$/.test(fileType) ? Number(fileType) : fileType;
  if (typeof type !== "number") return "unknown";
  return FILE_TYPES[type] ?? `file type ${type}`;
}
