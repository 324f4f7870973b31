/**
 * verifyArchive: whichever SHA-256 computes the digests (WebCrypto, the
 * synchronous one, Node's native one in the CLI), it finds exactly the
 * entries a one-by-one WebCrypto check of each payload finds.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { verifyArchive, type VerifyProblem } from "../../core/archive.ts";
import type { ArchiveEntry } from "../../core/checkpoint.ts";
import { useNodeHasher } from "../../core/cli/node-hash.ts";
import { digestPayload, useNativeHasher } from "../../core/hash.ts";

/** The definition, spelled out: each payload hashed on its own with WebCrypto. */
async function referenceProblems(archive: readonly ArchiveEntry[]): Promise<VerifyProblem[]> {
  const problems: VerifyProblem[] = [];
  const seen = new Set<string>();
  for (const entry of archive) {
    if (seen.has(entry.id)) problems.push({ id: entry.id, expected: "", found: "", reason: "duplicate recovery id" });
    seen.add(entry.id);
    const { sha256, bytes } = await digestPayload(entry.payload);
    if (sha256 !== entry.sha256) problems.push({ id: entry.id, expected: entry.sha256, found: sha256, reason: "sha256 mismatch" });
    else if (bytes !== entry.bytes) problems.push({ id: entry.id, expected: String(entry.bytes), found: String(bytes), reason: "byte count mismatch" });
  }
  return problems;
}

type Tamper = "none" | "payload" | "hash" | "bytes" | "duplicate";

const archiveArb = fc.array(
  fc.record({
    payload: fc.oneof(fc.jsonValue(), fc.string({ unit: "grapheme" }), fc.constant({ type: "text", text: "é😀".repeat(20_000) })),
    tamper: fc.constantFrom<Tamper>("none", "none", "payload", "hash", "bytes", "duplicate"),
  }),
  { maxLength: 8 },
);

async function archiveFrom(items: { payload: unknown; tamper: Tamper }[]): Promise<ArchiveEntry[]> {
  const archive: ArchiveEntry[] = [];
  for (const [i, { payload, tamper }] of items.entries()) {
    const { sha256, bytes } = await digestPayload(payload);
    const entry: ArchiveEntry = { id: `m${i}#/blocks`, sha256, bytes, kind: "toolResult", messageId: `m${i}`, path: "/blocks", payload };
    if (tamper === "payload") entry.payload = [payload, "x"];
    if (tamper === "hash") entry.sha256 = (sha256[0] === "0" ? "1" : "0") + sha256.slice(1);
    if (tamper === "bytes") entry.bytes = bytes + 1;
    if (tamper === "duplicate" && i > 0) entry.id = archive[0]!.id;
    archive.push(entry);
  }
  return archive;
}

describe("verifyArchive", () => {
  it("finds exactly what a one-by-one WebCrypto check finds, in the app's hashing", async () => {
    await fc.assert(
      fc.asyncProperty(archiveArb, async (items) => {
        const archive = await archiveFrom(items);
        expect(await verifyArchive(archive)).toEqual(await referenceProblems(archive));
      }),
      { numRuns: 60 },
    );
  });

  it("finds exactly what a one-by-one WebCrypto check finds, with the CLI's native hash", async () => {
    useNodeHasher();
    try {
      await fc.assert(
        fc.asyncProperty(archiveArb, async (items) => {
          const archive = await archiveFrom(items);
          expect(await verifyArchive(archive)).toEqual(await referenceProblems(archive));
        }),
        { numRuns: 60 },
      );
    } finally {
      useNativeHasher(undefined);
    }
  });
});
