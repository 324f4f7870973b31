/**
 * SHA-256 as the archive defines it: lowercase hex of the digest of the UTF-8
 * bytes of JSON.stringify(payload). The digest is the same whichever
 * implementation computes it (test/core/sha256.test.ts cross-checks them):
 *
 * - WebCrypto (globalThis.crypto.subtle, in Node 20 and in workers) for whole
 *   files and large payloads in the browser, and always for recovering one
 *   payload (the app's Recover button).
 * - the synchronous core/sha256.ts for small payloads in the browser, because
 *   WebCrypto's fixed cost per call (~40 µs measured) would dominate a
 *   session of many small tool results.
 * - a platform's native SHA-256 when it installs one (the CLI on Node:
 *   `node:crypto`, which uses the CPU's SHA instructions; Node's WebCrypto
 *   digest measured ~7× slower here and blocks the calling thread anyway).
 */
import { sha256HexSync } from "./sha256.ts";

const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
/** Below this many bytes the synchronous hash is faster than a WebCrypto call. */
const SYNC_HASH_LIMIT = 32 * 1024;
const YIELD_EVERY = 2048;

/** Always WebCrypto. */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  let out = "";
  for (const byte of digest) out += HEX[byte];
  return out;
}

/** A synchronous SHA-256 of a whole byte array, lowercase hex. */
export type SyncHasher = (bytes: Uint8Array) => string;
let nativeHasher: SyncHasher | undefined;

/**
 * Installs a platform's native SHA-256 (or removes it with undefined). It
 * must give the same digest as WebCrypto.
 */
export function useNativeHasher(hasher: SyncHasher | undefined): void {
  nativeHasher = hasher;
}

/** The SHA-256 of a session file: the native hasher when there is one, else WebCrypto. */
export async function fileSha256(bytes: Uint8Array): Promise<string> {
  return nativeHasher ? nativeHasher(bytes) : sha256Hex(bytes);
}

export interface PayloadDigest {
  sha256: string;
  /** UTF-8 byte length of the payload's JSON. */
  bytes: number;
  /** JSON.stringify(payload).length, reused by the stats. */
  jsonLength: number;
}

/** Always WebCrypto: what recovery uses to check one payload. */
export async function digestPayload(payload: unknown): Promise<PayloadDigest> {
  const json = JSON.stringify(payload) ?? "null";
  const bytes = encoder.encode(json);
  return { sha256: await sha256Hex(bytes), bytes: bytes.length, jsonLength: json.length };
}

let scratch: Uint8Array<ArrayBuffer> = new Uint8Array(1 << 16);

/**
 * The archive's digest of many payloads, fastest path per payload. Each
 * payload is serialized and encoded into one reused buffer: nothing is kept,
 * because holding 86 MB of JSON for a 100 MB session cost more (new memory,
 * collector copies) than serializing it again when the checkpoint is written.
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
    const bytes = encodeToScratch(json);
    if (nativeHasher) {
      out[i] = { sha256: nativeHasher(bytes), bytes: bytes.length, jsonLength: json.length };
    } else if (bytes.length <= SYNC_HASH_LIMIT) {
      out[i] = { sha256: sha256HexSync(bytes), bytes: bytes.length, jsonLength: json.length };
    } else {
      // WebCrypto reads the bytes later: the shared scratch buffer must be copied first.
      const own = bytes.buffer === scratch.buffer ? bytes.slice() : bytes;
      large.push(sha256Hex(own).then((sha256) => void (out[i] = { sha256, bytes: own.length, jsonLength: json.length })));
    }
  }
}

function encodeToScratch(json: string): Uint8Array<ArrayBuffer> {
  // UTF-8 needs at most 3 bytes per UTF-16 code unit.
  if (json.length * 3 > scratch.length) {
    if (json.length * 3 > SYNC_HASH_LIMIT * 4) return encoder.encode(json) as Uint8Array<ArrayBuffer>;
    scratch = new Uint8Array(json.length * 3);
  }
  return scratch.subarray(0, encoder.encodeInto(json, scratch).written);
}
