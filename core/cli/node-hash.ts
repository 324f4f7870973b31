/** Node's native SHA-256 for the CLI (same digest as core/sha256.ts and WebCrypto; cross-checked in test/core/sha256.test.ts). */
import { createHash } from "node:crypto";
import { useNativeHasher } from "../hash.ts";

export function useNodeHasher(): void {
  useNativeHasher((bytes) => createHash("sha256").update(bytes).digest("hex"));
}
