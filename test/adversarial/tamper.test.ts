/**
 * `verify` checks the active view against the archive, in both directions.
 * Every strategy's checkpoint of every real fixture verifies clean; each
 * tampering an adversary tried is caught and named.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import type { Checkpoint } from "../../core/checkpoint.ts";
import { verifyCheckpointFile } from "../../core/cli/checkpoint-file.ts";
import { serializeCheckpoint } from "../../core/checkpoint-json.ts";
import { compactSession } from "../../core/compact.ts";
import { digestPayload } from "../../core/hash.ts";
import type { OmittedBlock } from "../../core/model.ts";
import { loadSession } from "../../core/session.ts";
import { STRATEGIES } from "../../core/strategies/index.ts";
import { verifyCheckpoint } from "../../core/verify.ts";
import { allFixtures, readFixture, describeWithFixtures } from "../helpers/fixtures.ts";

const SOURCE = { name: "x.jsonl", bytes: 1, sha256: "0".repeat(64) };
const loadable = allFixtures().filter((relative) => {
  try {
    loadSession(readFixture(relative));
    return true;
  } catch {
    return false; // a format no reader accepts yet (another issue's work)
  }
});

describeWithFixtures("every strategy's checkpoint verifies clean", () => {
  it.each(loadable)("%s", async (relative) => {
    const session = loadSession(readFixture(relative));
    for (const strategy of STRATEGIES) {
      const checkpoint = await compactSession(session, SOURCE, { strategy: strategy.name });
      expect(await verifyCheckpoint(checkpoint), strategy.name).toEqual([]);
      const file = join(temp, "clean.json");
      writeFileSync(file, serializeCheckpoint(checkpoint));
      expect(await verifyCheckpointFile(file, 64 * 1024), `${strategy.name}, read in pieces`).toEqual({ payloads: checkpoint.archive.length, problems: [] });
    }
  });
});

/** A transparent checkpoint with at least two markers, as plain JSON (a copy the test may damage). */
async function transparentCheckpoint(): Promise<Checkpoint> {
  const session = loadSession(readFixture("composed/pi-v3-tree.jsonl"));
  return JSON.parse(JSON.stringify(await compactSession(session, SOURCE, { strategy: "transparent" })));
}

function markers(checkpoint: Checkpoint): OmittedBlock[] {
  return checkpoint.active.flatMap((m) => m.blocks.filter((b): b is OmittedBlock => b.type === "omitted"));
}

const temp = mkdtempSync(join(tmpdir(), "si-tamper-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/**
 * The problems verifyCheckpoint names; the CLI's `verify`, which reads the
 * file in pieces and checks it entry by entry, must name the very same ones
 * (small pieces here, so values straddle them).
 */
async function reasons(checkpoint: Checkpoint): Promise<string[]> {
  const whole = await verifyCheckpoint(checkpoint);
  const file = join(temp, "tampered.json");
  writeFileSync(file, JSON.stringify(checkpoint));
  const streamed = await verifyCheckpointFile(file, 4096);
  expect(streamed.problems, "the streamed verify names the same problems").toEqual(whole);
  expect(streamed.payloads).toBe(checkpoint.archive.length);
  return whole.map((p) => `${p.id}: ${p.reason}`);
}

describeWithFixtures("tampering is caught and named", () => {
  it("an emptied archive: every marker has no entry", async () => {
    const checkpoint = await transparentCheckpoint();
    const count = markers(checkpoint).length;
    expect(count).toBeGreaterThan(1);
    checkpoint.archive = [];
    const found = await reasons(checkpoint);
    expect(found.filter((r) => r.includes("has no archive entry"))).toHaveLength(count);
  });

  it("a removed entry (stats left as they were)", async () => {
    const checkpoint = await transparentCheckpoint();
    const [removed] = checkpoint.archive.splice(1, 1);
    const found = await reasons(checkpoint);
    expect(found).toContain(`${removed!.id}: marker in message ${removed!.messageId} has no archive entry`);
    expect(found.some((r) => r.startsWith("stats: stats.payloads says"))).toBe(true);
  });

  it("two payloads swapped, with or without their hashes", async () => {
    const checkpoint = await transparentCheckpoint();
    const [a, b] = checkpoint.archive;
    [a!.payload, b!.payload] = [b!.payload, a!.payload];
    expect((await reasons(checkpoint)).filter((r) => r.includes("sha256 mismatch"))).toHaveLength(2);
    [a!.sha256, b!.sha256, a!.bytes, b!.bytes] = [b!.sha256, a!.sha256, b!.bytes, a!.bytes];
    const found = await reasons(checkpoint);
    expect(found.filter((r) => r.includes("sha256 mismatch"))).toHaveLength(0);
    expect(found).toContain(`${a!.id}: marker's sha256 differs from its archive entry's (marker ${b!.sha256}, entry ${a!.sha256})`);
  });

  it("a payload replaced, its hash and size recomputed", async () => {
    const checkpoint = await transparentCheckpoint();
    const entry = checkpoint.archive[0]!;
    entry.payload = { type: "text", text: "forged" };
    const digest = await digestPayload(entry.payload);
    entry.sha256 = digest.sha256;
    entry.bytes = digest.bytes;
    const found = await reasons(checkpoint);
    expect(found.some((r) => r.startsWith(`${entry.id}: marker's sha256 differs`))).toBe(true);
  });

  it("a marker's hash changed, a marker's recovery id changed", async () => {
    const checkpoint = await transparentCheckpoint();
    const [first, second] = markers(checkpoint);
    first!.sha256 = "f".repeat(64);
    const originalId = second!.recoveryId;
    second!.recoveryId = `${originalId}x`;
    const found = await reasons(checkpoint);
    expect(found.some((r) => r.startsWith(`${first!.recoveryId}: marker's sha256 differs`))).toBe(true);
    expect(found.some((r) => r.startsWith(`${originalId}x: marker in message`) && r.endsWith("has no archive entry"))).toBe(true);
    expect(found).toContain(`${originalId}: referenced by no marker in the active view`);
  });

  it("a marker duplicated, an entry's id not its message and path, a whole message both removed and kept", async () => {
    const checkpoint = await transparentCheckpoint();
    const withMarker = checkpoint.active.find((m) => m.blocks.some((b) => b.type === "omitted"))!;
    const marker = withMarker.blocks.find((b) => b.type === "omitted") as OmittedBlock;
    withMarker.blocks.push({ ...marker });
    checkpoint.archive[1]!.path = "/blocks/9";
    const found = await reasons(checkpoint);
    expect(found).toContain(`${marker.recoveryId}: referenced by 2 markers (expected exactly one)`);
    expect(found.some((r) => r.startsWith(`${checkpoint.archive[1]!.id}: recovery id does not match`))).toBe(true);

    const session = loadSession(readFixture("composed/pi-v3-tree.jsonl"));
    const recorded: Checkpoint = JSON.parse(JSON.stringify(await compactSession(session, SOURCE, { strategy: "recorded" })));
    const whole = recorded.archive.find((e) => e.path === "")!;
    recorded.active.push(whole.payload as Checkpoint["active"][number]);
    expect(await reasons(recorded)).toContain(`${whole.id}: whole-message entry, but message ${whole.messageId} is still in the active view`);
  });

  it("malformed entries and messages are named, never thrown", async () => {
    const checkpoint = await transparentCheckpoint();
    (checkpoint.archive as unknown[]).push(null, { id: "x#/blocks" });
    (checkpoint.active as unknown[]).push(7);
    const found = await reasons(checkpoint);
    expect(found).toContain("archive[" + (checkpoint.archive.length - 2) + "]: archive entry is not an object");
    expect(found).toContain('x#/blocks: archive entry has no "sha256" string');
    expect(found).toContain(`active[${checkpoint.active.length - 1}]: active message has no block list`);
  });
});
