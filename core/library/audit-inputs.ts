/**
 * What a recorded compaction's audit reads, reduced to one fingerprint, so a
 * library that re-opens a grown session audits only the compactions that are
 * new: the audit of compaction #i (core/audit/moment.ts) is a function of the
 * branch up to its line, its before and after contexts, its own record, the
 * session's working directory, format and header ids, and the code's version;
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
import { branchUpTo } from "../audit/moment.ts";
import type { FormatName, Message, RecordedCompaction } from "../model.ts";
import { sha256HexSync } from "../sha256.ts";
import { LIBRARY_INDEX_VERSION } from "./cache.ts";

export interface AuditContext {
  /** The row's path: a database's sessions share a file, never a fingerprint. */
  path: string;
  format: FormatName;
  cwd: string | undefined;
  sessionIds: readonly string[];
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
  return compactions.map((compaction) => {
    const { before, after, ...record } = compaction;
    const parts = [shared, JSON.stringify(record), "branch", ...branchUpTo(branch, compaction).map(digestOf), "before", ...before.map(digestOf), "after", ...after.map(digestOf)];
    return sha256HexSync(encoder.encode(parts.join("\n")));
  });
}

/**
 * A 64-bit digest of a text (two independent 32-bit FNV-1a lanes over its
 * UTF-16 code units): the per-message step, cheap enough to run over every
 * message of the branch; the fingerprint over all of them is SHA-256.
 */
export function textDigest(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0") + text.length.toString(36);
}
