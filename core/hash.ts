/**
 * SHA-256 as the archive defines it: lowercase hex of the digest of the UTF-8
 * bytes of JSON.stringify(payload). Whole files and large payloads go through
 * WebCrypto (globalThis.crypto.subtle, in Node 20 and in workers); small
 * payloads through the synchronous core/sha256.ts, because WebCrypto's fixed
 * cost per call (~40 µs measured) would dominate a session of many small
 * tool results. Same digest either way.
 */
import { sha256HexSync } from "./sha256.ts";

const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
/** Below this many bytes the synchronous hash is faster than a WebCrypto call. */
const SYNC_HASH_LIMIT = 32 * 1024;
const YIELD_EVERY = 2048;

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
  /** JSON.stringify(payload), kept so it is serialized only once. */
  json: string;
}

/** Always WebCrypto: what recovery and `verify` use to check a payload. */
export async function digestPayload(payload: unknown): Promise<PayloadDigest> {
  const json = JSON.stringify(payload) ?? "null";
  const bytes = encoder.encode(json);
  return { sha256: await sha256Hex(bytes), bytes: bytes.length, json };
}

let scratch = new Uint8Array(1 << 16);

/**
 * The synchronous hasher for small payloads: core/sha256.ts by default; a
 * platform with a native SHA-256 (the CLI on Node) may put its own in. Any
 * replacement must give the same digest: test/core/sha256.test.ts checks
 * both against WebCrypto.
 */
export type SyncHasher = (bytes: Uint8Array, length: number) => string;
let syncHasher: SyncHasher = sha256HexSync;

export function useSyncHasher(hasher: SyncHasher): void {
  syncHasher = hasher;
}

/**
 * The archive's digest of many payloads, fastest path per payload. Serializes
 * each payload once (the JSON is returned for reuse) and encodes into one
 * reused buffer instead of allocating per payload.
 */
export async function digestPayloads(payloads: readonly unknown[]): Promise<PayloadDigest[]> {
  const out: PayloadDigest[] = new Array(payloads.length);
  const large: Promise<void>[] = [];
  for (let i = 0; i < payloads.length; i++) {
    // Yield now and then so a worker can answer other messages during a long compaction.
    if (i > 0 && i % YIELD_EVERY === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    hashOne(payloads[i], i);
  }
  await Promise.all(large);
  return out;

  function hashOne(payload: unknown, i: number): void {
    const json = JSON.stringify(payload) ?? "null";
    // UTF-8 needs at most 3 bytes per UTF-16 code unit.
    if (json.length * 3 > scratch.length) {
      if (json.length * 3 > SYNC_HASH_LIMIT * 4) {
        const bytes = encoder.encode(json);
        large.push(sha256Hex(bytes).then((sha256) => void (out[i] = { sha256, bytes: bytes.length, json })));
        return;
      }
      scratch = new Uint8Array(json.length * 3);
    }
    const { written } = encoder.encodeInto(json, scratch);
    if (written <= SYNC_HASH_LIMIT) {
      out[i] = { sha256: syncHasher(scratch, written), bytes: written, json };
    } else {
      const bytes = scratch.slice(0, written);
      large.push(sha256Hex(bytes).then((sha256) => void (out[i] = { sha256, bytes: written, json })));
    }
  }
}
