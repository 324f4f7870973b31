/**
 * `compact --previous`: the earlier checkpoint is trusted only when it is of
 * this very source and still verifies. It used to be merged whatever it was:
 * a Codex checkpoint's payloads went into a Claude one, tampered entries were
 * copied in (the result then failed verify), and a message array's positional
 * ids (`m0`, `m1`) let one session's checkpoint move another's prose out.
 */
import type { Checkpoint } from "../checkpoint.ts";
import type { FormatName } from "../model.ts";
import { verifyCheckpoint } from "../verify.ts";
import { UsageError } from "./flags.ts";
import { FileError } from "./input.ts";

/** The strategies that carry an earlier checkpoint's archive forward; the others refuse --previous. */
export const RECOMPACTING_STRATEGIES: readonly string[] = ["transparent"];

/** Message arrays have no ids of their own: positions are only the same messages when the bytes are the same. */
const POSITIONAL_FORMATS: readonly string[] = ["openai", "anthropic"];

export function refusePreviousFor(strategy: string): void {
  if (RECOMPACTING_STRATEGIES.includes(strategy)) return;
  throw new UsageError(`--previous works with ${RECOMPACTING_STRATEGIES.join(", ")} only: the ${strategy} strategy makes each checkpoint from the session alone`);
}

/** Checks that hold before the session is read: the checkpoint is whole, verifies, and was made by a strategy that recompacts. */
export async function checkPreviousCheckpoint(file: string, previous: Checkpoint): Promise<void> {
  const source = previous.source as Partial<Checkpoint["source"]> | undefined;
  if (!source || typeof source.sha256 !== "string" || typeof source.bytes !== "number" || typeof source.format !== "string") {
    throw new FileError(file, 0, "the previous checkpoint names no source (sha256, bytes, format)");
  }
  const strategy = String(previous.strategy?.name);
  if (!RECOMPACTING_STRATEGIES.includes(strategy))
    throw new FileError(file, 0, `the previous checkpoint was made by the ${strategy} strategy; only a ${RECOMPACTING_STRATEGIES.join(", ")} checkpoint can be recompacted`);
  const problems = await verifyCheckpoint(previous);
  if (problems.length > 0) {
    const first = problems[0]!;
    throw new FileError(
      file,
      0,
      `the previous checkpoint fails verification (${first.id}: ${first.reason}${problems.length > 1 ? `; ${problems.length - 1} more problem(s), run verify` : ""})`,
    );
  }
}

export interface ReadSource {
  bytes: number;
  sha256: string;
  format: FormatName;
  /** SHA-256 of this file's first `previous.source.bytes` bytes. */
  prefixSha256?: string;
}

/**
 * Whether the checkpoint is of this source: the same bytes, or (JSON Lines
 * only) a file that grew, whose first bytes are exactly the earlier file.
 * Returns a note for the grown case; throws otherwise.
 */
export function matchPreviousSource(file: string, previous: Checkpoint, current: ReadSource): string | undefined {
  const earlier = previous.source;
  if (earlier.format !== current.format) {
    throw new FileError(file, 0, `the previous checkpoint is of a ${earlier.format} session; this one is ${current.format}`);
  }
  if (earlier.sha256 === current.sha256 && earlier.bytes === current.bytes) return undefined;
  if (POSITIONAL_FORMATS.includes(current.format)) {
    throw new FileError(
      file,
      0,
      `the previous checkpoint is of another ${current.format} message array (sha256 ${earlier.sha256.slice(0, 12)}…): its ids are positions, so only the same file can be recompacted`,
    );
  }
  if (earlier.bytes < current.bytes && current.prefixSha256 === earlier.sha256) {
    return `the session grew since the previous checkpoint (${earlier.bytes} → ${current.bytes} bytes); its first ${earlier.bytes} bytes are the earlier file, byte for byte`;
  }
  throw new FileError(
    file,
    0,
    `the previous checkpoint is of another source (sha256 ${earlier.sha256.slice(0, 12)}…, ${earlier.bytes} bytes), not this file or an earlier state of it`,
  );
}
