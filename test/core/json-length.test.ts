/** The reused-length serialization equals JSON.stringify exactly. */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkpointPieces, serializeCheckpoint } from "../../core/checkpoint-json.ts";
import { compactSession } from "../../core/compact.ts";
import { MeasuredOver, messagesJsonLength } from "../../core/json-length.ts";
import { STRATEGIES } from "../../core/strategies/index.ts";
import type { Message } from "../../core/model.ts";
import { keepSerializedViews, rememberedJson } from "../../core/serialized.ts";
import { loadSession } from "../../core/session.ts";
import { allFixtures, readFixture, describeWithFixtures } from "../helpers/fixtures.ts";

describe("messagesJsonLength", () => {
  it("equals JSON.stringify(messages).length for arbitrary messages", () => {
    const messageArb = fc.record({
      id: fc.string(),
      role: fc.constantFrom("user", "assistant"),
      meta: fc.dictionary(fc.string(), fc.jsonValue()),
      blocks: fc.array(fc.oneof(fc.record({ type: fc.constant("text"), text: fc.string() }), fc.record({ type: fc.constant("raw"), value: fc.jsonValue() }))),
      line: fc.option(fc.nat(), { nil: undefined }),
    }) as fc.Arbitrary<Message>;
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 6 }), (messages) => {
        expect(messagesJsonLength(messages, new Map())).toBe(JSON.stringify(messages).length);
      }),
    );
  });
});

describe("MeasuredOver", () => {
  it("reads the lengths under it and keeps its own to itself", () => {
    const shared: Message = { id: "a", role: "user", meta: {}, blocks: [{ type: "text", text: "kept as is" }] };
    const copy: Message = { id: "b", role: "assistant", meta: {}, blocks: [{ type: "text", text: "a strategy's copy" }] };
    const base = new Map<object, number>();
    messagesJsonLength([shared], base);
    const over = new MeasuredOver(base);
    expect(messagesJsonLength([shared, copy], over)).toBe(JSON.stringify([shared, copy]).length);
    expect(over.get(copy)).toBe(JSON.stringify(copy).length);
    expect(base.has(copy)).toBe(false);
  });
});

describeWithFixtures("every strategy's stats, the branch measured once for all of them", () => {
  it.each(allFixtures())("originalChars and activeChars equal JSON.stringify for %s", async (relative) => {
    const session = loadSession(readFixture(relative));
    const branch = session.branch(null);
    for (const { name } of STRATEGIES) {
      const checkpoint = await compactSession(session, { name: relative, bytes: 0, sha256: "" }, { strategy: name });
      expect(checkpoint.stats.originalChars, name).toBe(JSON.stringify(branch).length);
      expect(checkpoint.stats.activeChars, name).toBe(JSON.stringify(checkpoint.active).length);
    }
  });
});

describeWithFixtures("serializeCheckpoint with the active view's JSON kept (as the CLI runs)", () => {
  beforeAll(() => keepSerializedViews(true));
  afterAll(() => keepSerializedViews(false));

  it.each(allFixtures())("splices the kept JSON in and still equals JSON.stringify for %s", async (relative) => {
    const session = loadSession(readFixture(relative));
    for (const options of [{}, { maxProseChars: 5000 }]) {
      const checkpoint = await compactSession(session, { name: relative, bytes: 1, sha256: "x" }, { strategy: "transparent", options });
      const kept = rememberedJson(checkpoint.active);
      expect(kept).toBe(JSON.stringify(checkpoint.active));
      const pieces = [...checkpointPieces(checkpoint)];
      // The kept string itself is one of the pieces: nothing was serialized again.
      expect(pieces).toContain(kept);
      expect(pieces.join("")).toBe(JSON.stringify(checkpoint));
    }
  });

  it("falls back to serializing when the active view is not where a checkpoint keeps it", async () => {
    const session = loadSession(readFixture(allFixtures()[0]!));
    const checkpoint = await compactSession(session, { name: "x", bytes: 1, sha256: "x" }, { strategy: "transparent" });
    const { active, ...others } = checkpoint;
    const reordered = { active, ...others } as typeof checkpoint;
    const kept = rememberedJson(reordered.active);
    expect(kept).toBeDefined();
    const pieces = [...checkpointPieces(reordered)];
    expect(pieces).not.toContain(kept);
    expect(pieces.join("")).toBe(JSON.stringify(reordered));
  });

  it("is off unless asked for: the app's worker keeps checkpoints for a whole session", async () => {
    keepSerializedViews(false);
    try {
      const session = loadSession(readFixture(allFixtures()[0]!));
      const checkpoint = await compactSession(session, { name: "x", bytes: 1, sha256: "x" }, { strategy: "transparent" });
      expect(rememberedJson(checkpoint.active)).toBeUndefined();
    } finally {
      keepSerializedViews(true);
    }
  });
});

describeWithFixtures("serializeCheckpoint", () => {
  it.each(allFixtures())("equals JSON.stringify for %s", async (relative) => {
    const session = loadSession(readFixture(relative));
    const checkpoint = await compactSession(session, { name: relative, bytes: 1, sha256: "x" }, { strategy: "transparent", options: { maxProseChars: 5000 } });
    expect(serializeCheckpoint(checkpoint)).toBe(JSON.stringify(checkpoint));
    // Each entry is its own piece: a writer holds one payload's JSON at a time.
    const pieces = [...checkpointPieces(checkpoint)];
    expect(pieces.length).toBe(2 + Math.max(0, 2 * checkpoint.archive.length - 1));
    expect(checkpoint.stats.originalChars).toBe(JSON.stringify(session.branch(null)).length);
    expect(checkpoint.stats.activeChars).toBe(JSON.stringify(checkpoint.active).length);
    // Key order is part of the bytes a checkpoint is written as (the CLI and the app write the same file).
    expect(Object.keys(checkpoint.stats)).toEqual(["proseSegments", "proseVerbatim", "payloads", "originalChars", "activeChars", "metadataFields", "capped"]);
  });
});
