/**
 * SHA-256 (FIPS 180-4) in plain TypeScript, synchronous. WebCrypto's digest
 * is asynchronous and costs tens of microseconds per call whatever the size
 * (measured: ~40 µs in Node 20), which dominates when a session has tens of
 * thousands of small payloads. Compaction hashes small payloads here and large
 * ones with WebCrypto; both give the same digest (cross-checked against
 * WebCrypto in test/core/sha256.test.ts), and recovery always re-verifies with
 * WebCrypto.
 */
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
  0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
  0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
  0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const W = new Int32Array(64);
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** Hex SHA-256 of `length` bytes of `data`. */
export function sha256HexSync(data: Uint8Array, length = data.length): string {
  const h = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const fullBlocks = Math.floor(length / 64);
  for (let block = 0; block < fullBlocks; block++) compress(h, data, block * 64);
  return finish(h, data.subarray(fullBlocks * 64, length), length);
}

/** The padding (the remaining bytes, 0x80, zeros, then the bit length, big-endian) compressed into `h`, as hex. */
function finish(h: Int32Array, rest: Uint8Array, total: number): string {
  const tail = new Uint8Array(rest.length < 56 ? 64 : 128);
  tail.set(rest);
  tail[rest.length] = 0x80;
  const bits = total * 8;
  const view = new DataView(tail.buffer);
  view.setUint32(tail.length - 8, Math.floor(bits / 0x100000000));
  view.setUint32(tail.length - 4, bits >>> 0);
  for (let offset = 0; offset < tail.length; offset += 64) compress(h, tail, offset);
  let out = "";
  for (let i = 0; i < 8; i++) {
    const word = h[i]!;
    out += HEX[(word >>> 24) & 255]! + HEX[(word >>> 16) & 255]! + HEX[(word >>> 8) & 255]! + HEX[word & 255]!;
  }
  return out;
}

function compress(h: Int32Array, data: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    W[i] = (data[j]! << 24) | (data[j + 1]! << 16) | (data[j + 2]! << 8) | data[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15]!;
    const w2 = W[i - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = h[0]!,
    b = h[1]!,
    c = h[2]!,
    d = h[3]!,
    e = h[4]!,
    f = h[5]!,
    g = h[6]!,
    hh = h[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (hh + S1 + ch + K[i]! + W[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (S0 + maj) | 0;
    hh = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
  h[5] = (h[5]! + f) | 0;
  h[6] = (h[6]! + g) | 0;
  h[7] = (h[7]! + hh) | 0;
}

/**
 * SHA-256 over bytes that arrive in pieces (a file followed while it grows):
 * `hex()` gives the digest of everything so far and leaves the stream open,
 * so a growing file is hashed once, not again from its start on each change.
 */
export class Sha256Stream {
  private readonly h = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  /** Bytes of an incomplete block. */
  private readonly pending = new Uint8Array(64);
  private pendingLength = 0;
  private total = 0;

  update(data: Uint8Array): this {
    this.total += data.length;
    let at = 0;
    if (this.pendingLength > 0) {
      const take = Math.min(64 - this.pendingLength, data.length);
      this.pending.set(data.subarray(0, take), this.pendingLength);
      this.pendingLength += take;
      at = take;
      if (this.pendingLength < 64) return this;
      compress(this.h, this.pending, 0);
      this.pendingLength = 0;
    }
    for (; at + 64 <= data.length; at += 64) compress(this.h, data, at);
    this.pending.set(data.subarray(at), 0);
    this.pendingLength = data.length - at;
    return this;
  }

  /** Hex digest of every byte given so far; the stream can go on. */
  hex(): string {
    return finish(this.h.slice(), this.pending.subarray(0, this.pendingLength), this.total);
  }
}
