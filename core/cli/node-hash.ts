/** Node's native SHA-256 for the CLI's many small payloads (same digest as core/sha256.ts and WebCrypto). */
import { createHash } from "node:crypto";
import { useSyncHasher } from "../hash.ts";

export function useNodeHasher(): void {
  useSyncHasher((bytes, length) => createHash("sha256").update(bytes.subarray(0, length)).digest("hex"));
}
