/** The synchronous SHA-256 against WebCrypto, and the fast archive digest against the plain definition. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { digestPayload, digestPayloads, sha256Hex } from "../../core/hash.ts";
import { Sha256Stream, sha256HexSync } from "../../core/sha256.ts";
import { useNodeHasher } from "../../core/cli/node-hash.ts";
import { fileSha256, useNativeHasher } from "../../core/hash.ts";

describe("sha256HexSync", () => {
  it("matches the FIPS 180-4 examples", () => {
    const enc = new TextEncoder();
    expect(sha256HexSync(enc.encode(""))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256HexSync(enc.encode("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256HexSync(enc.encode("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))).toBe("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  });

  it("equals WebCrypto on random bytes of every length around the block boundaries", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        expect(sha256HexSync(bytes)).toBe(await sha256Hex(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it("digestPayloads (sync for small, WebCrypto for large) equals digestPayload for any JSON", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue(), { maxLength: 8 }), async (payloads) => {
        const fast = await digestPayloads(payloads);
        const plain = await Promise.all(payloads.map(digestPayload));
        expect(fast).toEqual(plain);
      }),
      { numRuns: 150 },
    );
    const big = [{ type: "text", text: "é".repeat(100_000) }, "x".repeat(40_000), { t: "ü".repeat(20_000) }];
    expect(await digestPayloads(big)).toEqual(await Promise.all(big.map(digestPayload)));
  });
});

describe("Sha256Stream", () => {
  it("equals the one-shot digest however the bytes are cut, at every point along the way", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 8 }), async (pieces) => {
        const stream = new Sha256Stream();
        let sofar = new Uint8Array(0);
        for (const piece of pieces) {
          stream.update(piece);
          const joined = new Uint8Array(sofar.length + piece.length);
          joined.set(sofar);
          joined.set(piece, sofar.length);
          sofar = joined;
          // hex() leaves the stream open: the digest so far, then more bytes.
          expect(stream.hex()).toBe(await sha256Hex(sofar));
        }
        expect(stream.hex()).toBe(sha256HexSync(sofar));
      }),
      { numRuns: 200 },
    );
  });
});

describe("the CLI's native hasher", () => {
  it("gives the same archive and file digests as WebCrypto", async () => {
    useNodeHasher();
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.jsonValue(), { maxLength: 8 }), async (payloads) => {
          expect(await digestPayloads(payloads)).toEqual(await Promise.all(payloads.map(digestPayload)));
        }),
        { numRuns: 100 },
      );
      const big = [{ type: "text", text: "é".repeat(100_000) }, "x".repeat(40_000)];
      expect(await digestPayloads(big)).toEqual(await Promise.all(big.map(digestPayload)));
      const file = new TextEncoder().encode("ü€😀".repeat(50_000));
      expect(await fileSha256(file)).toBe(await sha256Hex(file));
    } finally {
      useNativeHasher(undefined);
    }
  });
});
