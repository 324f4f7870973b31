/**
 * `verify` holds neither the archive's payloads nor the active view's text: a
 * checkpoint file is read in pieces, each entry is hashed and let go, each
 * active message gives its markers, id and role and is let go. A composed
 * checkpoint of about 150 MB (96 MB of payloads, 48 MB of text kept in the active view)
 * verifies in a heap of 48 MB, where holding either, as JSON text or parsed,
 * cannot fit; and the entries reach the verifier a few megabytes at a time.
 */
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECKPOINT_SCHEMA, recoveryId } from "../../core/checkpoint.ts";
import { verifyCheckpointFile } from "../../core/cli/checkpoint-file.ts";
import { digestPayload } from "../../core/hash.ts";
import { runCli } from "../helpers/cli.ts";

const ENTRIES = 96;
const PAYLOAD_CHARS = 1024 * 1024;
const HEAP_MB = 48;

const temp = mkdtempSync(join(tmpdir(), "si-verify-memory-"));
const file = join(temp, "large.cp.json");
const tampered = join(temp, "tampered.cp.json");
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** One tool result per entry, each a 1 MB text moved out behind a marker; `forgeAt` gets a payload its hash does not match. */
async function writeCheckpoint(path: string, forgeAt = -1): Promise<void> {
  const payload = { type: "text", text: "the tool printed this line again\n".repeat(PAYLOAD_CHARS / 32) };
  const { sha256, bytes } = await digestPayload(payload);
  const forged = { ...payload, text: payload.text.replace("tool", "fool") };
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  const ids = Array.from({ length: ENTRIES }, (_, i) => `m${i}`);
  const markers = ids.map((id) => ({ id, role: "toolResult", blocks: [{ type: "omitted", recoveryId: recoveryId(id, "/blocks/0"), sha256, bytes, kind: "text" }] }));
  // The prose the strategy kept: half as much text again, in the active view.
  const prose = Array.from({ length: ENTRIES / 2 }, (_, i) => ({ id: `a${i}`, role: "assistant", blocks: [{ type: "text", text: payload.text }] }));
  const active = [...markers, ...prose];
  await write(`{"schema":${JSON.stringify(CHECKPOINT_SCHEMA)},"strategy":{"name":"transparent"},"active":${JSON.stringify(active)},"archive":[`);
  for (const [i, id] of ids.entries()) {
    const entry = { id: recoveryId(id, "/blocks/0"), messageId: id, path: "/blocks/0", kind: "text", sha256, bytes, payload: i === forgeAt ? forged : payload };
    await write((i > 0 ? "," : "") + JSON.stringify(entry));
  }
  await write(`],"stats":{"payloads":${ENTRIES}}}`);
  out.end();
  await once(out, "finish");
}

beforeAll(async () => {
  await writeCheckpoint(file);
  await writeCheckpoint(tampered, 40);
}, 60_000);

describe("verify of a checkpoint larger than its heap", () => {
  const smallHeap = { ...process.env, NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` };

  it(`${ENTRIES} MB of payloads and ${ENTRIES / 2} MB of active text verify in a ${HEAP_MB} MB heap`, () => {
    const result = runCli(["verify", file], smallHeap);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({ file, payloads: ENTRIES, mismatches: 0, ok: true });
    expect(result.status).toBe(0);
  }, 60_000);

  it("and a forged payload among them is named, in the same heap", () => {
    const result = runCli(["verify", tampered], smallHeap);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^mismatch: m40#\/blocks\/0: sha256 mismatch \(expected [0-9a-f]{64}, found [0-9a-f]{64}\)\n$/);
    expect(JSON.parse(result.stdout)).toMatchObject({ payloads: ENTRIES, mismatches: 1, ok: false });
  }, 60_000);

  it("hands the verifier a few megabytes of entries at a time, read in small pieces", async () => {
    const batches: { entries: number; bytes: number }[] = [];
    const verified = await verifyCheckpointFile(file, 64 * 1024, (entries, bytes) => batches.push({ entries: entries.length, bytes }));
    expect(verified).toEqual({ payloads: ENTRIES, problems: [] });
    expect(batches.reduce((sum, batch) => sum + batch.entries, 0)).toBe(ENTRIES);
    // 4 MB per batch, closed by the entry that passes it: four or five 1 MB entries, never the archive.
    expect(batches.length).toBeGreaterThanOrEqual(ENTRIES / 5);
    for (const batch of batches) expect(batch.bytes).toBeLessThan(6 * 1024 * 1024);
  });
});
