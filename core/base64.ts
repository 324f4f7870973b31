/**
 * Base64 (RFC 4648, with padding) of bytes and back, through byte buffers:
 * `btoa` over a binary string built from a large array cost 5 ms per 110 KB
 * (measured), most of reading a grown session's tail (core/library/resume.ts
 * keeps its id filters so).
 */
const ALPHABET = new TextEncoder().encode("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
const PAD = 61;
const VALUE = new Int16Array(128).fill(-1);
ALPHABET.forEach((code, value) => (VALUE[code] = value));
const ascii = new TextDecoder();

export function toBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let at = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const group = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[at++] = ALPHABET[group >>> 18]!;
    out[at++] = ALPHABET[(group >>> 12) & 63]!;
    out[at++] = ALPHABET[(group >>> 6) & 63]!;
    out[at++] = ALPHABET[group & 63]!;
  }
  const left = bytes.length - i;
  if (left > 0) {
    const group = (bytes[i]! << 16) | (left === 2 ? bytes[i + 1]! << 8 : 0);
    out[at++] = ALPHABET[group >>> 18]!;
    out[at++] = ALPHABET[(group >>> 12) & 63]!;
    out[at++] = left === 2 ? ALPHABET[(group >>> 6) & 63]! : PAD;
    out[at++] = PAD;
  }
  return ascii.decode(out);
}

/** The bytes a base64 text stands for; throws on a character outside the alphabet or a length not a multiple of 4. */
export function fromBase64(text: string): Uint8Array {
  if (text.length % 4 !== 0) throw new Error("base64: the length is not a multiple of 4");
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  const value = (at: number): number => {
    const code = text.charCodeAt(at);
    const six = code < 128 ? VALUE[code]! : -1;
    if (six < 0) throw new Error(`base64: "${text[at]}" at ${at} is not in the alphabet`);
    return six;
  };
  let at = 0;
  for (let i = 0; i < text.length; i += 4) {
    const last = i + 4 === text.length;
    const group = (value(i) << 18) | (value(i + 1) << 12) | (last && padding === 2 ? 0 : value(i + 2) << 6) | (last && padding > 0 ? 0 : value(i + 3));
    out[at++] = group >>> 16;
    if (at < out.length) out[at++] = (group >>> 8) & 255;
    if (at < out.length) out[at++] = group & 255;
  }
  return out;
}
