/**
 * A bounded fuzz of mutated real fixtures through the CLI's core path: load
 * (in pieces, one read), inspect, scan, compact with every strategy, write,
 * read back and verify. Each case ends in a one-line SessionError or in
 * checkpoints that verify clean: never a crash, never a checkpoint that fails
 * verify. A fixed seed and ~200 cases in CI; ADVERSARIAL_RUNS=N for more
 * (ADVERSARIAL_SEED to explore other cases). A few cases also go through the
 * real CLI, checking exit codes and one-line errors.
 */
import fc from "fast-check";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serializeCheckpoint } from "../../core/checkpoint-json.ts";
import { compactSession } from "../../core/compact.ts";
import { PieceDecoder } from "../../core/decode.ts";
import { inspectSession } from "../../core/inspect.ts";
import { SessionError, type Session } from "../../core/model.ts";
import { scanMessages } from "../../core/redact.ts";
import { StreamingSessionLoader } from "../../core/session-stream.ts";
import { STRATEGIES } from "../../core/strategies/index.ts";
import { verifyCheckpoint } from "../../core/verify.ts";
import { runCli } from "../helpers/cli.ts";
import { readFixture, describeWithFixtures, fixturesPresent } from "../helpers/fixtures.ts";
import { mutate, mutationArb } from "./mutate.ts";

const RUNS = Number(process.env.ADVERSARIAL_RUNS ?? 200);
const SEED = Number(process.env.ADVERSARIAL_SEED ?? 1313);
/** Small real files of every kind the readers take (the big ones only cost time here). */
const FIXTURES = [
  "composed/pi-v3-tree.jsonl",
  "composed/pi-v2-hookmessage.jsonl",
  "composed/codex-modern-compacted.jsonl",
  "composed/openai-chat.json",
  "composed/anthropic-messages.json",
  "claude/DRMacIver__claude-reliability__python-to-rust-port.jsonl",
  "messages/SWE-agent__mini-swe-agent__github_issue.traj.json",
]
  // Read only where the fixtures are present: the suites over them are skipped otherwise.
  .flatMap((name) => (fixturesPresent ? [{ name, bytes: readFixture(name) }] : []));
const SOURCE = { name: "mutated", bytes: 1, sha256: "0".repeat(64) };

/** The CLI's read: pieces through one reused buffer, finished from the loader's own copy. */
function load(bytes: Uint8Array, strict: boolean, piece: number): Session {
  const loader = new StreamingSessionLoader({ strict }, new PieceDecoder());
  const reused = Buffer.alloc(piece);
  for (let at = 0; at < bytes.length; at += piece) {
    const n = Math.min(piece, bytes.length - at);
    reused.set(bytes.subarray(at, at + n));
    loader.push(reused.subarray(0, n));
  }
  return loader.finish();
}

/** Ends in a one-line SessionError ("refused") or checkpoints that verify ("ok"); anything else throws. */
async function throughCommands(bytes: Uint8Array, strict: boolean, piece: number): Promise<"refused" | "ok"> {
  let session: Session;
  try {
    session = load(bytes, strict, piece);
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
    expect(error.reason).not.toMatch(/[\r\n]/);
    expect(error.line).toBeGreaterThanOrEqual(0);
    return "refused";
  }
  inspectSession(session);
  scanMessages(session.branch(null));
  for (const strategy of STRATEGIES) {
    const checkpoint = await compactSession(session, SOURCE, { strategy: strategy.name });
    const written = JSON.parse(serializeCheckpoint(checkpoint));
    expect(await verifyCheckpoint(written), `${strategy.name} checkpoint verifies`).toEqual([]);
  }
  return "ok";
}

describeWithFixtures("mutated real fixtures through load, inspect, scan, compact and verify", () => {
  it(`${RUNS} cases (seed ${SEED}): a one-line refusal or checkpoints that verify`, async () => {
    const seen = { refused: 0, ok: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.nat(Math.max(0, FIXTURES.length - 1)),
        fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        fc.constantFrom(7, 4096, 65_536),
        async (which, mutations, strict, piece) => {
          seen[await throughCommands(mutate(FIXTURES[which]!.bytes, mutations), strict, piece)]++;
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
    // The fuzz exercises both outcomes, or it tests less than it seems to.
    expect(seen.refused).toBeGreaterThan(RUNS / 20);
    expect(seen.ok).toBeGreaterThan(RUNS / 20);
  }, 240_000);
});

describe.runIf(fixturesPresent && Number(process.env.ADVERSARIAL_CLI_RUNS ?? 6) > 0)("a few mutated files through the real CLI", () => {
  const temp = mkdtempSync(join(tmpdir(), "si-fuzz-"));
  const cases = fc.sample(fc.tuple(fc.nat(Math.max(0, FIXTURES.length - 1)), fc.array(mutationArb, { minLength: 1, maxLength: 2 })), {
    seed: SEED,
    numRuns: Number(process.env.ADVERSARIAL_CLI_RUNS ?? 6),
  });

  it.each(cases.map((c, i) => [i, c] as const))(
    "case %i: exit 0 with a checkpoint that verifies, or exit 2 with one line naming the file",
    (i, [which, mutations]) => {
      const file = join(temp, `case-${i}${FIXTURES[which]!.name.endsWith(".json") ? ".json" : ".jsonl"}`);
      writeFileSync(file, mutate(FIXTURES[which]!.bytes, mutations));
      const out = join(temp, `case-${i}.checkpoint.json`);
      const compact = runCli(["compact", file, "--output", out]);
      if (compact.status === 0) {
        expect(runCli(["verify", out]).status).toBe(0);
      } else {
        expect(compact.status).toBe(2);
        const errors = compact.stderr
          .trimEnd()
          .split("\n")
          .filter((line) => !line.startsWith("warning:"));
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatch(new RegExp(`^error: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+: \\S`));
      }
    },
    60_000,
  );
});
