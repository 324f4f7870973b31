/**
 * The transparent strategy: prose verbatim, every payload recoverable by
 * hash, recompaction keeps ids and hashes, idempotence, the prose cap; on
 * random branches (fast-check) and on every real fixture.
 */
import fc from "fast-check";
import { lostMessages } from "../helpers/restore.ts";
import { describe, expect, it } from "vitest";
import { RecoveryError, recover, verifyArchive } from "../../core/archive.ts";
import type { ArchiveEntry } from "../../core/checkpoint.ts";
import { compactSession } from "../../core/compact.ts";
import type { Block, Message } from "../../core/model.ts";
import { loadSession } from "../../core/session.ts";
import { transparent } from "../../core/strategies/transparent.ts";
import { allFixtures, readFixture, describeWithFixtures } from "../helpers/fixtures.ts";

const SOURCE = { name: "test", bytes: 0, sha256: "" };

const blockArb: fc.Arbitrary<Block> = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }).map((text) => ({ type: "text" as const, text })),
  fc.constantFrom("a\r\nb", "Grüße 東京 🧾", "", "  trailing\n").map((text) => ({ type: "text" as const, text })),
  fc.string({ maxLength: 30 }).map((text) => ({ type: "thinking" as const, text })),
  fc.record({ id: fc.string({ minLength: 1, maxLength: 6 }), name: fc.constantFrom("read", "bash", "edit") }).map((c) => ({
    type: "toolCall" as const,
    id: c.id,
    name: c.name,
    arguments: { path: "src/x.ts" },
  })),
  fc.base64String({ maxLength: 24 }).map((data) => ({ type: "image" as const, mimeType: "image/png", data })),
  fc.jsonValue().map((value) => ({ type: "raw" as const, value })),
);

const messageArb = fc.record({
  role: fc.constantFrom("user", "assistant", "toolResult", "bash", "custom", "summary", "system") as fc.Arbitrary<Message["role"]>,
  blocks: fc.array(blockArb, { maxLength: 5 }),
  meta: fc.dictionary(fc.constantFrom("toolCallId", "isError", "exitCode", "usage", "timestamp"), fc.jsonValue(), { maxKeys: 3 }),
});

const branchArb = fc.array(messageArb, { maxLength: 25 }).map((messages) => messages.map((m, i): Message => ({ ...m, id: `m${i}` })));

function proseOf(messages: readonly Message[]): string[][] {
  return messages.filter((m) => m.role === "user" || m.role === "assistant").map((m) => m.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])));
}

function proseChars(messages: readonly Message[]): number {
  return proseOf(messages)
    .flat()
    .reduce((sum, text) => sum + text.length, 0);
}

describe("transparent on random branches", () => {
  it("prose in = prose out, segment by segment, and every payload verifies", async () => {
    await fc.assert(
      fc.asyncProperty(branchArb, async (branch) => {
        const result = await transparent(branch, {}, {});
        expect(proseOf(result.active)).toEqual(proseOf(branch));
        // Lengths added up from what was replaced equal the serialized views.
        expect(result.stats.originalChars).toBe(JSON.stringify(branch).length);
        expect(result.stats.activeChars).toBe(JSON.stringify(result.active).length);
        expect(result.stats.proseVerbatim).toBe(result.stats.proseSegments);
        expect(await verifyArchive(result.archive)).toEqual([]);
        // Nothing is lost, payload by payload: each message comes back whole from its markers' payloads.
        expect(lostMessages(branch, result.active, result.archive)).toEqual([]);
        for (const message of result.active) {
          expect(message.blocks.some((b) => b.type === "thinking" || b.type === "image" || b.type === "raw")).toBe(false);
          const source = branch.find((m) => m.id === message.id)!;
          expect(message.meta).toEqual(source.meta);
          for (const block of message.blocks) {
            if (block.type !== "omitted") continue;
            const recovered = await recover(result.archive, block.recoveryId);
            expect(recovered.sha256).toBe(block.sha256);
          }
        }
        // Tool calls stay exactly where they were (a result's content moves out whole, whatever it holds).
        const calls = (ms: readonly Message[]) => ms.filter((m) => m.role !== "toolResult" && m.role !== "bash").flatMap((m) => m.blocks.filter((b) => b.type === "toolCall"));
        expect(calls(result.active)).toEqual(calls(branch));
      }),
      { numRuns: 120 },
    );
  });

  it("recompaction keeps every id and hash; nothing new changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(branchArb, branchArb, async (first, more) => {
        const grown = [...first, ...more.map((m, i) => ({ ...m, id: `n${i}` }))];
        const before = await transparent(first, {}, {});
        const again = await transparent(first, {}, { previous: before });
        expect(again.active).toEqual(before.active);
        const fromActive = await transparent(before.active, {}, { previous: before });
        expect(fromActive.active).toEqual(before.active);
        expect(sortById(fromActive.archive)).toEqual(sortById(before.archive));
        for (const previous of [before, fromActive]) {
          const after = await transparent([...previous.active.slice(0, 0), ...grown], {}, { previous });
          const ids = new Map(after.archive.map((e) => [e.id, e.sha256]));
          for (const entry of before.archive) expect(ids.get(entry.id)).toBe(entry.sha256);
        }
        // An earlier active view plus the new messages: old markers stay markers.
        const mixed = await transparent([...before.active, ...grown.slice(first.length)], {}, { previous: before });
        expect(mixed.active.slice(0, first.length)).toEqual(before.active);
        expect(await verifyArchive(mixed.archive)).toEqual([]);
        expect(mixed.stats.activeChars).toBe(JSON.stringify(mixed.active).length);
      }),
      { numRuns: 80 },
    );
  });

  it("the cap drops whole prose blocks, oldest first, and stays under budget", async () => {
    await fc.assert(
      fc.asyncProperty(branchArb, fc.nat({ max: 200 }), async (branch, cap) => {
        const result = await transparent(branch, { maxProseChars: cap }, {});
        expect(proseChars(result.active)).toBeLessThanOrEqual(cap);
        const original = proseOf(branch).flat();
        const kept = proseOf(result.active).flat();
        // What is kept is a suffix of the prose sequence (oldest dropped first)
        // and every kept block is whole.
        expect(kept).toEqual(original.slice(original.length - kept.length));
        expect(result.stats.capped).toBe(original.length - kept.length);
        const capped = result.archive.filter((e) => e.kind === "prose");
        expect(capped).toHaveLength(result.stats.capped);
        expect(result.stats.activeChars).toBe(JSON.stringify(result.active).length);
        expect(await verifyArchive(result.archive)).toEqual([]);
      }),
      { numRuns: 120 },
    );
  });
});

function sortById(entries: ArchiveEntry[]): ArchiveEntry[] {
  return [...entries].sort((a, b) => a.id.localeCompare(b.id));
}

describeWithFixtures("transparent on every fixture", () => {
  describe.each(allFixtures())("%s", (relative) => {
    it("recovers every payload by hash, keeps prose verbatim and metadata exact", async () => {
      const session = loadSession(readFixture(relative));
      const branch = session.branch(null);
      const checkpoint = await compactSession(session, SOURCE, { strategy: "transparent" });
      expect(checkpoint.stats.proseVerbatim).toBe(checkpoint.stats.proseSegments);
      expect(proseOf(checkpoint.active)).toEqual(proseOf(branch));
      expect(await verifyArchive(checkpoint.archive)).toEqual([]);
      const markers = checkpoint.active.flatMap((m) => m.blocks.filter((b) => b.type === "omitted"));
      expect(markers).toHaveLength(checkpoint.archive.length);
      expect(checkpoint.stats.payloads).toBe(checkpoint.archive.length);
      checkpoint.active.forEach((message, i) => {
        expect(message.id).toBe(branch[i]!.id);
        expect(message.meta).toBe(branch[i]!.meta);
      });
      // The checkpoint survives a JSON round trip with all hashes intact.
      const exported = JSON.parse(JSON.stringify(checkpoint));
      expect(await verifyArchive(exported.archive)).toEqual([]);
    });
  });
});

describeWithFixtures("the real recompaction pair (prefix → grown file)", () => {
  it("keeps every earlier recovery id and hash", async () => {
    const prefix = loadSession(readFixture("pi/JohnnyLai92__pi-mono__6edf3497.prefix.jsonl"));
    const full = loadSession(readFixture("pi/JohnnyLai92__pi-mono__6edf3497.jsonl"));
    const first = await compactSession(prefix, SOURCE, { strategy: "transparent" });
    const second = await compactSession(full, SOURCE, { strategy: "transparent", previous: first });
    const ids = new Map(second.archive.map((e) => [e.id, e.sha256]));
    for (const entry of first.archive) expect(ids.get(entry.id)).toBe(entry.sha256);
    expect(second.archive.length).toBeGreaterThan(first.archive.length);
    expect(second.active.slice(0, first.active.length)).toEqual(first.active);
    const idle = await compactSession(full, SOURCE, { strategy: "transparent", previous: second });
    expect(idle.active).toEqual(second.active);
  });
});

describeWithFixtures("tampering", () => {
  it("one changed character in one payload fails verify and recover, naming the id", async () => {
    const session = loadSession(readFixture("composed/pi-v3-tree.jsonl"));
    const checkpoint = JSON.parse(JSON.stringify(await compactSession(session, SOURCE, { strategy: "transparent" })));
    const victim = checkpoint.archive.find((e: ArchiveEntry) => e.kind === "toolResult");
    victim.payload[0].text = victim.payload[0].text.replace("e", "E");
    const problems = await verifyArchive(checkpoint.archive);
    expect(problems.map((p) => p.id)).toEqual([victim.id]);
    await expect(recover(checkpoint.archive, victim.id)).rejects.toBeInstanceOf(RecoveryError);
    await expect(recover(checkpoint.archive, victim.id)).rejects.toThrow(victim.id);
  });

  it("labels keep tool name, call id, error state and exit code", async () => {
    const session = loadSession(readFixture("composed/pi-v3-tree.jsonl"));
    const checkpoint = await compactSession(session, SOURCE, { strategy: "transparent" });
    const labels = checkpoint.active.flatMap((m) => m.blocks.flatMap((b) => (b.type === "omitted" ? [b.label] : [])));
    const failing = checkpoint.archive.find((e) => e.id === "c0000004#/blocks")!;
    expect(labels).toContain(
      `bash result (toolu_04): error, exit 1, ${failing.bytes} bytes; says "TypeError: Cannot read properties of undefined (reading 'toFixed') at toCsv (src/export.ts:9:22)"`,
    );
    expect(labels.some((l) => l.startsWith("bash output of `git status --short`: ok, exit 0"))).toBe(true);
    expect(labels.some((l) => l.startsWith('unknown block "x-future-block"'))).toBe(true);
    expect(labels.some((l) => l.startsWith("thinking,"))).toBe(true);
  });
});
