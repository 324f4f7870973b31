/**
 * What a recorded compaction's audit reads, reduced to one fingerprint, so a
 * library that re-opens a grown session audits only the compactions that are
 * new: the audit of compaction #i (core/audit/moment.ts) is a function of the
 * branch up to its line (and the subagents' messages the file recorded before
 * it: FactOptions.delegated), its before and after contexts, its own record,
 * the session's working directory, format and header ids, and the code's version;
 * nothing written after it changes that row. Equal fingerprints, equal rows.
 *
 * Fingerprinting the inputs rather than the file's prefix is what makes the
 * reuse safe on every format: a Gemini CLI chat rewritten by `$set`, a Pi tree
 * whose default branch moved to a new leaf, a Claude Code message merged from
 * lines either side of a compaction all change a compaction's inputs, and the
 * fingerprint with them, while a session that only grew keeps every old one.
 * Cost: one pass over the text of the branch up to the last compaction (about
 * what parsing it cost), against one audit per compaction (tens of ms each,
 * measured in docs/performance.md).
 */
import type { FormatName, Message, RecordedCompaction } from "../model.ts";
import { sha256HexSync } from "../sha256.ts";
import { fnvLanes } from "../fnv.ts";
import { LIBRARY_INDEX_VERSION } from "./cache.ts";

export interface AuditContext {
  /** The row's path: a database's sessions share a file, never a fingerprint. */
  path: string;
  format: FormatName;
  cwd: string | undefined;
  sessionIds: readonly string[];
  /** The subagents' messages recorded beside the branch (delegatedWork), which the audit's facts read. */
  delegated?: readonly Message[];
}

const encoder = new TextEncoder();

/** One fingerprint per compaction, in the order given (the branch's recorded compactions). */
export function compactionFingerprints(branch: readonly Message[], compactions: readonly RecordedCompaction[], context: AuditContext): string[] {
  const digests = new Map<Message, string>();
  const digestOf = (message: Message): string => {
    let digest = digests.get(message);
    if (digest === undefined) digests.set(message, (digest = textDigest(JSON.stringify(message))));
    return digest;
  };
  const shared = JSON.stringify([LIBRARY_INDEX_VERSION, context.path, context.format, context.cwd ?? null, context.sessionIds]);
  const branchParts = upToDigests(branch, compactions, digestOf);
  const delegatedParts = upToDigests(context.delegated ?? [], compactions, digestOf);
  return compactions.map((compaction, i) => {
    const { before, after, ...record } = compaction;
    const parts = [shared, JSON.stringify(record), "branch", branchParts[i]!, "delegated", delegatedParts[i]!, "before", ...before.map(digestOf), "after", ...after.map(digestOf)];
    return sha256HexSync(encoder.encode(parts.join("\n")));
  });
}

const MASK_64 = (1n << 64n) - 1n;

/**
 * Per compaction, one value for the messages up to it (branchUpTo: every message of the list read before
 * the compaction's line; the branch, or the subagents' messages), made in one pass whatever the number of compactions: messages are
 * taken in line order and each adds the digest of its place and its own digest to a running sum, so a
 * session with a thousand compactions is not joined a thousand times. The sum stands for the set of
 * (place, message) pairs; the message count beside it keeps a prefix from passing for a longer one.
 */
function upToDigests(branch: readonly Message[], compactions: readonly RecordedCompaction[], digestOf: (message: Message) => string): string[] {
  const byLine = branch.map((message, place) => ({ line: message.line ?? 0, place, message })).sort((a, b) => a.line - b.line);
  const order = compactions.map((compaction, i) => ({ line: compaction.line, i })).sort((a, b) => a.line - b.line);
  const out: string[] = new Array(compactions.length);
  let sum = 0n;
  let taken = 0;
  for (const { line, i } of order) {
    while (taken < byLine.length && byLine[taken]!.line < line) {
      const { place, message } = byLine[taken]!;
      sum = (sum + BigInt(`0x${textDigest(`${place}:${digestOf(message)}`).slice(0, 16)}`)) & MASK_64;
      taken++;
    }
    out[i] = `${taken}:${sum.toString(16)}`;
  }
  return out;
}

/**
 * A 64-bit digest of a text (two independent 32-bit FNV-1a lanes over its
 * UTF-16 code units): the per-message step, cheap enough to run over every
 * message of the branch; the fingerprint over all of them is SHA-256.
 */
export function textDigest(text: string): string {
  const [a, b] = fnvLanes(text);
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0") + text.length.toString(36);
}
