/**
 * The streamed compaction (core/compact-stream.ts) against the one over a
 * whole session (compactSession + serializeCheckpoint): the same bytes for
 * every leaf of every Pi fixture, read in pieces that cut characters, and for
 * generated Pi trees of every shape (branches, duplicate ids, missing
 * parents, run-together lines, v1 files without ids, results before or
 * without their calls). A branch the second read does not find is an error,
 * never a checkpoint.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactSession } from "../../core/compact.ts";
import { compactStreamed, streamableEntries, type CheckpointSink } from "../../core/compact-stream.ts";
import { serializeCheckpoint } from "../../core/checkpoint-json.ts";
import { PieceDecoder } from "../../core/decode.ts";
import { DETECTION_RECORDS } from "../../core/formats/recognise.ts";
import type { Session } from "../../core/model.ts";
import { outlineEntry } from "../../core/outline.ts";
import { loadSession } from "../../core/session.ts";
import { StreamingSessionLoader } from "../../core/session-stream.ts";
import { allFixtures, describeWithFixtures, readFixture } from "../helpers/fixtures.ts";
import { piSession } from "../helpers/generated-pi.ts";
import { claudeSession, codexRollout } from "../helpers/generated-transcripts.ts";

const encoder = new TextEncoder();

function piecesOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return pieces;
}

function readOutline(bytes: Uint8Array, pieceSize: number): { outline: Session; outlined: boolean } {
  const loader = new StreamingSessionLoader({}, new PieceDecoder(), outlineEntry);
  for (const piece of piecesOf(bytes, pieceSize)) loader.push(piece);
  const outline = loader.finish();
  return { outline, outlined: loader.outlined };
}

function memorySink(): { sink: CheckpointSink; text: () => string } {
  const out: string[] = [];
  let spooled: string[] = [];
  return {
    sink: {
      write: (piece) => void out.push(piece),
      spool: (piece) => void spooled.push(piece),
      writeSpooled: () => {
        out.push(...spooled);
        spooled = [];
      },
    },
    text: () => out.join(""),
  };
}

function sourceOf(bytes: Uint8Array) {
  return { name: "session.jsonl", bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/**
 * The streamed checkpoint, or undefined when the file is not read as an outline (one line: it may be one
 * pretty-printed object) or its branch is not in file order: the CLI then loads the session whole.
 */
async function streamed(bytes: Uint8Array, leafId: string | null, countTokens: boolean, pieceSize: number, secondRead: Uint8Array = bytes): Promise<string | undefined> {
  const { outline, outlined } = readOutline(bytes, pieceSize);
  if (!outlined) return undefined;
  const entries = streamableEntries(outline, leafId);
  if (!entries) return undefined;
  const { sink, text } = memorySink();
  await compactStreamed({ outline, source: sourceOf(bytes), entries, leafId, countTokens }, piecesOf(secondRead, pieceSize), new PieceDecoder(), sink);
  return text();
}

async function whole(bytes: Uint8Array, leafId: string | null, countTokens: boolean): Promise<string> {
  const session = loadSession(bytes);
  const checkpoint = await compactSession(session, sourceOf(bytes), { strategy: "transparent", leafId, countTokens, cacheTokenCounts: false });
  return serializeCheckpoint(checkpoint);
}

describeWithFixtures("the streamed compaction of real Pi, Claude Code and Codex sessions", () => {
  const streamingFixtures = allFixtures().filter((name) => {
    try {
      const format = loadSession(readFixture(name)).format;
      return format === "pi" || format === "claude" || format === "codex";
    } catch {
      return false;
    }
  });

  it("finds the Pi, Claude Code and Codex fixtures", () => {
    expect(streamingFixtures.length).toBeGreaterThanOrEqual(12);
  });

  for (const name of streamingFixtures) {
    it(`${name}: the same bytes as the whole-session compaction, for every leaf`, async () => {
      const bytes = readFixture(name);
      const session = loadSession(bytes);
      // Claude Code and Codex are read record by record once their first 50 records name the format: a shorter file is read whole.
      const records = new TextDecoder()
        .decode(bytes)
        .split("\n")
        .filter((line) => line.trim() !== "").length;
      if (session.format !== "pi" && records < DETECTION_RECORDS) {
        expect(await streamed(bytes, null, false, 65_536)).toBeUndefined();
        return;
      }
      const leaves = [null, ...session.leaves.slice(0, 6)];
      for (const [i, leaf] of leaves.entries()) {
        // Token counts for the default leaf only: they are the slow part, and the same code for every leaf.
        const countTokens = i === 0;
        // 1,000-byte pieces cut multi-byte characters and lines; 64 KB pieces are the usual case.
        const got = await streamed(bytes, leaf, countTokens, i % 2 === 0 ? 65_536 : 1_000);
        expect(got, `leaf ${leaf}`).toBeDefined();
        expect(got).toBe(await whole(bytes, leaf, countTokens));
      }
    }, 60_000);
  }
});

/**
 * For generated sessions cut into pieces of any size: the streamed bytes are
 * the whole-session compaction's whenever the session streams, and at least
 * `minStreamed` of `numRuns` do (the property is not vacuous).
 */
async function sameBytesWheneverStreamed(sessions: fc.Arbitrary<string>, numRuns: number, minStreamed: number): Promise<void> {
  let streamedCount = 0;
  await fc.assert(
    fc.asyncProperty(sessions, fc.nat(), fc.integer({ min: 1, max: 400 }), async (text, leafPick, pieceSize) => {
      const bytes = encoder.encode(text);
      const session = loadSession(bytes);
      const leaf = session.leaves.length > 0 ? session.leaves[leafPick % session.leaves.length]! : null;
      const got = await streamed(bytes, leaf, false, pieceSize);
      if (got === undefined) return;
      streamedCount++;
      expect(got).toBe(await whole(bytes, leaf, false));
    }),
    { numRuns },
  );
  expect(streamedCount).toBeGreaterThanOrEqual(minStreamed);
}

describe("the streamed compaction of generated Pi trees", () => {
  it("writes the whole-session compaction's bytes whenever the branch is in file order", () => sameBytesWheneverStreamed(piSession, 150, 100), 60_000);
});

describe("the streamed compaction of generated Claude Code transcripts", () => {
  it("writes the whole-session compaction's bytes whenever the branch is in file order", () => sameBytesWheneverStreamed(claudeSession, 120, 60), 60_000);
});

describe("the streamed compaction of generated Codex rollouts", () => {
  it("writes the whole-session compaction's bytes", () => sameBytesWheneverStreamed(codexRollout, 80, 40), 60_000);
});

describe("a file that changes between the two reads", () => {
  const text = [
    JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/w" }),
    JSON.stringify({ type: "message", id: "a", parentId: null, message: { role: "user", content: "hello" } }),
    JSON.stringify({ type: "message", id: "b", parentId: "a", message: { role: "assistant", content: [{ type: "text", text: "hi" }] } }),
  ].join("\n");

  it("is refused when the branch's records are not all there on the second read", async () => {
    const bytes = encoder.encode(text);
    const shorter = encoder.encode(text.slice(0, text.lastIndexOf("\n")));
    await expect(streamed(bytes, null, false, 64, shorter)).rejects.toThrow(/changed between its two reads/);
  });

  it("is refused when a record of the branch moved", async () => {
    const bytes = encoder.encode(text);
    const lines = text.split("\n");
    const moved = encoder.encode([lines[0], "", lines[1], lines[2]].join("\n"));
    await expect(streamed(bytes, null, false, 64, moved)).rejects.toThrow(/changed between its two reads/);
  });
});
