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

/**
 * A generated Claude Code transcript of at least 50 records (its format is
 * known from its first 50), turn by turn: a user line, an assistant message
 * streamed as one to three lines sharing its message id (with tool results
 * between them, as Claude Code writes parallel calls), its results on the
 * path or hanging beside it, and now and then a branch from an earlier line,
 * a sidechain, a compact boundary whose logical parent exists or not, a line
 * without a uuid, a duplicate uuid.
 */
const claudeSession = fc
  .array(
    fc.record({
      text: fc.string({ unit: fc.constantFrom("a", " ", "é", "😀", "\n", '"'), maxLength: 20 }),
      lines: fc.integer({ min: 1, max: 3 }),
      calls: fc.integer({ min: 0, max: 3 }),
      resultsBetween: fc.boolean(),
      beside: fc.boolean(),
      branchFrom: fc.option(fc.nat(200), { freq: 6 }),
      extra: fc.constantFrom("none", "none", "none", "sidechain", "boundary", "lostBoundary", "snapshot", "meta", "duplicate"),
    }),
    { minLength: 12, maxLength: 25 },
  )
  .map((turns) => {
    const lines: string[] = [];
    const uuids: string[] = [];
    let last: string | null = null;
    let n = 0;
    const add = (record: Record<string, unknown>, parentUuid: string | null = last, uuid = `u${n++}`) => {
      lines.push(JSON.stringify({ parentUuid, isSidechain: false, sessionId: "s", cwd: "/w", version: `2.1.${n % 3}`, uuid, timestamp: "t", ...record }));
      uuids.push(uuid);
      return uuid;
    };
    const results = (calls: string[], text: string, parent: string | null) =>
      add(
        {
          type: "user",
          message: { role: "user", content: calls.map((id) => ({ type: "tool_result", tool_use_id: id, content: `${text} exit code 1`, is_error: text.length % 2 === 0 })) },
        },
        parent,
      );
    turns.forEach((turn, t) => {
      if (turn.branchFrom !== null && uuids.length > 0) last = uuids[turn.branchFrom % uuids.length]!;
      last = add({ type: "user", message: { role: "user", content: turn.text } });
      for (let k = 0; k < turn.lines; k++) {
        const calls = Array.from({ length: turn.calls }, (_, c) => `t${t}_${k}_${c}`);
        const content = [
          ...(k === 0 ? [{ type: "thinking", thinking: turn.text, signature: "x" }] : []),
          { type: "text", text: turn.text },
          ...calls.map((id) => ({ type: "tool_use", id, name: "Bash", input: { command: turn.text } })),
        ];
        const assistant = add({ type: "assistant", message: { id: `msg${t}`, role: "assistant", model: "m", content, usage: { input_tokens: 1, output_tokens: 1 } } });
        last = assistant;
        if (calls.length === 0) continue;
        if (turn.beside)
          results(calls, turn.text, assistant); // hangs off the assistant line, beside what follows it
        else if (turn.resultsBetween || k === turn.lines - 1) last = results(calls, turn.text, assistant);
      }
      switch (turn.extra) {
        case "sidechain":
          add({ type: "user", isSidechain: true, message: { role: "user", content: turn.text } });
          break;
        case "boundary":
        case "lostBoundary":
          last = add({ type: "system", subtype: "compact_boundary", content: "Conversation compacted", logicalParentUuid: turn.extra === "boundary" ? last : "gone" }, null);
          break;
        case "snapshot":
          lines.push(JSON.stringify({ type: "file-history-snapshot", messageId: `m${t}`, snapshot: {} }));
          break;
        case "meta":
          last = add({ type: "user", isMeta: true, message: { role: "user", content: [{ type: "text", text: turn.text }] } });
          break;
        case "duplicate":
          add({ type: "user", message: { role: "user", content: "again" } }, last, uuids[0]);
          break;
      }
    });
    while (lines.length < 50) last = add({ type: "user", message: { role: "user", content: "more" } });
    return lines.join("\n") + "\n";
  });

describe("the streamed compaction of generated Claude Code transcripts", () => {
  it("writes the whole-session compaction's bytes whenever the branch is in file order", () => sameBytesWheneverStreamed(claudeSession, 120, 60), 60_000);
});

/**
 * A generated Codex rollout of at least 50 records, modern or legacy: session
 * metadata (repeated on a resume), turn contexts, user and assistant
 * messages, reasoning, function and custom tool calls with their outputs,
 * display events, `compacted` records with a replacement history, legacy
 * state lines and record kinds the reader does not know (a legacy rollout
 * drops the modern-only kinds, so some have fewer than 50 records and are
 * read whole).
 */
const codexRollout = fc
  .record({
    legacy: fc.boolean(),
    items: fc.array(
      fc.record({
        kind: fc.constantFrom("user", "assistant", "reasoning", "call", "custom", "event", "turn", "compacted", "meta", "state", "unknown"),
        text: fc.string({ unit: fc.constantFrom("a", " ", "é", "😀", "\n", '"'), maxLength: 20 }),
        exit: fc.integer({ min: 0, max: 2 }),
      }),
      { minLength: 50, maxLength: 80 },
    ),
  })
  .map(({ legacy, items }) => {
    const lines: unknown[] = [
      legacy ? { id: "s", timestamp: "t", instructions: "You are Codex." } : { timestamp: "t", type: "session_meta", payload: { id: "s", cwd: "/w", cli_version: "0.146.0" } },
    ];
    const item = (payload: Record<string, unknown>) => (legacy ? payload : { timestamp: "t", type: "response_item", payload });
    items.forEach((it, i) => {
      switch (it.kind) {
        case "user":
        case "assistant":
          lines.push(item({ type: "message", role: it.kind, content: [{ type: it.kind === "user" ? "input_text" : "output_text", text: it.text }] }));
          break;
        case "reasoning":
          lines.push(item({ type: "reasoning", id: `rs${i}`, summary: [{ type: "summary_text", text: it.text }], encrypted_content: "gAAA" }));
          break;
        case "call":
          lines.push(item({ type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["bash", "-lc", it.text] }), call_id: `c${i}` }));
          lines.push(item({ type: "function_call_output", call_id: `c${i}`, output: JSON.stringify({ output: it.text, metadata: { exit_code: it.exit } }) }));
          break;
        case "custom":
          lines.push(item({ type: "custom_tool_call", name: "apply_patch", input: it.text, call_id: `p${i}` }));
          lines.push(item({ type: "custom_tool_call_output", call_id: `p${i}`, output: `Process exited with code ${it.exit}\n${it.text}` }));
          break;
        case "event":
          if (!legacy) lines.push({ timestamp: "t", type: "event_msg", payload: { type: "agent_message", message: it.text } });
          break;
        case "turn":
          if (!legacy) lines.push({ timestamp: "t", type: "turn_context", payload: { turn_id: `t${i}`, model: "gpt-5.4" } });
          break;
        case "compacted":
          if (!legacy)
            lines.push({
              timestamp: "t",
              type: "compacted",
              payload: { message: it.text, replacement_history: [{ type: "message", role: "user", content: [{ type: "input_text", text: it.text }] }] },
            });
          break;
        case "meta":
          if (!legacy) lines.push({ timestamp: "t", type: "session_meta", payload: { id: "s", cwd: "/w", cli_version: "0.147.0" } });
          break;
        case "state":
          if (legacy) lines.push({ record_type: "state" });
          break;
        default:
          lines.push(legacy ? { type: "world_state", x: it.text } : { timestamp: "t", type: "world_state", payload: { x: it.text } });
      }
    });
    return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
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
