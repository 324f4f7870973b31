/**
 * Zstandard-compressed sessions (newer Codex writes `rollout-*.jsonl.zst`).
 * Known by the frame's magic bytes, never by the file name, and decompressed
 * with fzstd (pure JavaScript, so the same code runs in the worker and the CLI).
 */
import { decompress } from "fzstd";
import { SessionError } from "./model.ts";

/** 28 B5 2F FD: the magic number every zstd frame opens with. */
export function isZstd(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd;
}

export function decompressZstd(bytes: Uint8Array): Uint8Array {
  try {
    return decompress(bytes);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new SessionError(0, `a zstd-compressed file that does not decompress (${detail.slice(0, 120)})`);
  }
}
