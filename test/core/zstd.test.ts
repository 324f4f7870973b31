/**
 * `.jsonl.zst` rollouts: a real Codex rollout compressed with Debian's zstd
 * at test time (into a temporary folder; nothing compressed is committed)
 * loads exactly as the plain file, whole, streamed in pieces, and through the CLI.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { parseArgs } from "../../core/cli/flags.ts";
import { readSessionFile } from "../../core/cli/input.ts";
import { loadSession } from "../../core/session.ts";
import { StreamingSessionLoader } from "../../core/session-stream.ts";
import { isZstd } from "../../core/zstd.ts";
import { fixturePath, readFixture, describeWithFixtures } from "../helpers/fixtures.ts";

const ROLLOUT = "codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl";
const dir = mkdtempSync(join(tmpdir(), "si-zstd-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function compressed(): { path: string; bytes: Uint8Array } {
  const path = join(dir, "rollout.jsonl.zst");
  execFileSync("zstd", ["-q", "-f", "-19", fixturePath(ROLLOUT), "-o", path]);
  return { path, bytes: readFileSync(path) };
}

describeWithFixtures("zstd-compressed sessions", () => {
  const { path, bytes } = compressed();
  const plain = loadSession(readFixture(ROLLOUT));

  it("are known by their magic bytes, not their name", () => {
    expect(isZstd(bytes)).toBe(true);
    expect(isZstd(readFixture(ROLLOUT))).toBe(false);
    expect(bytes.length).toBeLessThan(readFixture(ROLLOUT).length / 3);
  });

  it("load exactly as the plain rollout", () => {
    const session = loadSession(bytes);
    expect(session.format).toBe("codex");
    expect(session.entries).toEqual(plain.entries);
    expect(session.branch(null)).toEqual(plain.branch(null));
    expect(session.recordedContext(null)).toEqual(plain.recordedContext(null));
  });

  it("load the same when their bytes arrive in pieces (the worker and the CLI)", () => {
    for (const size of [1, 3, 4096]) {
      const loader = new StreamingSessionLoader();
      for (let at = 0; at < bytes.length; at += size) loader.push(bytes.subarray(at, at + size));
      expect(loader.finish(bytes).branch(null)).toEqual(plain.branch(null));
    }
    const read = readSessionFile(parseArgs(["inspect", path]), 65_536);
    expect(read.bytes).toBe(bytes.length);
    expect(read.session.branch(null)).toEqual(plain.branch(null));
  });

  it("a damaged zstd file is a clear error", () => {
    expect(() => loadSession(bytes.subarray(0, 100))).toThrow(/zstd-compressed file that does not decompress/);
  });
});
