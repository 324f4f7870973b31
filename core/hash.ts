/**
 * SHA-256 through WebCrypto (globalThis.crypto.subtle in Node 20 and in
 * workers). The archive's hash is defined over the UTF-8 bytes of
 * JSON.stringify(payload), so the same payload hashes the same everywhere.
 */
const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  let out = "";
  for (const byte of digest) out += HEX[byte];
  return out;
}

export interface PayloadDigest {
  sha256: string;
  bytes: number;
  json: string;
}

export async function digestPayload(payload: unknown): Promise<PayloadDigest> {
  const json = JSON.stringify(payload) ?? "null";
  const bytes = encoder.encode(json);
  return { sha256: await sha256Hex(bytes), bytes: bytes.length, json };
}

export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}
