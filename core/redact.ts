/**
 * Secrets before anything leaves the machine: a scan of the session for API
 * keys of the common providers, tokens, JWTs, private-key blocks, password
 * assignments and e-mail addresses, and masking that replaces each chosen
 * value with the same placeholder everywhere (active view, archive payloads,
 * labels, metadata). Masked payloads get their hashes recomputed, and the
 * checkpoint says it was redacted.
 */
import type { ArchiveEntry, Checkpoint } from "./checkpoint.ts";
import { digestPayloads } from "./hash.ts";
import type { Message } from "./model.ts";

export type SecretKind =
  | "private-key"
  | "anthropic-key"
  | "openai-key"
  | "aws-access-key"
  | "aws-secret"
  | "github-token"
  | "slack-token"
  | "google-api-key"
  | "stripe-key"
  | "jwt"
  | "bearer-token"
  | "password"
  | "email";

interface Pattern {
  kind: SecretKind;
  regex: RegExp;
  /** The capture group holding the secret itself (0: the whole match). */
  group: number;
  /**
   * Strings every match contains (any one of them): a text holding none cannot
   * match, so the expression is not run on it. Most of a session's strings
   * hold none, and running all thirteen expressions on every string was most
   * of the scan (2.5 s of a 100 MB session's report). Only a literal the
   * expression itself requires belongs here, so what is found never changes
   * (test/core/redact.test.ts checks every match of every fixture holds one).
   */
  clues: readonly string[];
}

/** Most specific first: an Anthropic key also looks like an OpenAI key. */
export const SECRET_PATTERNS: readonly Pattern[] = [
  { kind: "private-key", regex: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g, group: 0, clues: ["-----BEGIN "] },
  { kind: "anthropic-key", regex: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, group: 0, clues: ["sk-ant-"] },
  { kind: "openai-key", regex: /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}/g, group: 0, clues: ["sk-"] },
  { kind: "aws-access-key", regex: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, group: 0, clues: ["AKIA", "ASIA"] },
  { kind: "aws-secret", regex: /aws_secret_access_key["']?\s*[=:]\s*["']?([A-Za-z0-9/+=]{40})/gi, group: 1, clues: ["=", ":"] },
  { kind: "github-token", regex: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g, group: 0, clues: ["gh", "github_pat_"] },
  { kind: "slack-token", regex: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, group: 0, clues: ["xox"] },
  { kind: "google-api-key", regex: /\bAIza[0-9A-Za-z_-]{35}/g, group: 0, clues: ["AIza"] },
  { kind: "stripe-key", regex: /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/g, group: 0, clues: ["k_live_", "k_test_"] },
  // A JWT's header and payload are base64url JSON objects (`eyJ…`, or `e30` for `{}`); short ones
  // (an empty payload, `alg: none` with no signature) are tokens all the same.
  { kind: "jwt", regex: /\beyJ[A-Za-z0-9_-]{5,}\.(?:eyJ[A-Za-z0-9_-]*|e30)\.[A-Za-z0-9_-]*/g, group: 0, clues: ["eyJ"] },
  { kind: "bearer-token", regex: /\bBearer\s+([A-Za-z0-9._~+/=-]{16,})/g, group: 1, clues: ["Bearer"] },
  // Also env-style names that end in one of these words (DB_PASSWORD=, POSTGRES_PASSWORD=, CLIENT_SECRET=,
  // MY_API_KEY=, db_password:): `_` is a word character, so `\b` alone never matched inside them. An
  // underscore before the word is enough (a prefix matched part by part measured 10× slower).
  {
    kind: "password",
    regex: /(?:\b|_)(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token)\b["']?\s*[:=]\s*["']?([^\s"'`,;)}{]{4,})/gi,
    group: 1,
    clues: ["=", ":"],
  },
  { kind: "email", regex: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g, group: 0, clues: ["@"] },
];

export interface Finding {
  /** Stable for the same value: the kind and the order of first appearance. */
  id: string;
  kind: SecretKind;
  value: string;
  occurrences: number;
  messageIds: string[];
  /** The value with its middle hidden, for review lists. */
  preview: string;
}

export function previewSecret(value: string): string {
  if (value.length <= 8) return `${value.slice(0, 2)}…`;
  return `${value.slice(0, 4)}…${value.slice(-3)} (${value.length} chars)`;
}

/** Every string inside a value, without recursion (deep JSON is fine). */
function* strings(value: unknown): Generator<string> {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === "string") yield current;
    else if (Array.isArray(current)) for (let i = current.length - 1; i >= 0; i--) stack.push(current[i]);
    else if (current && typeof current === "object") for (const key of Object.keys(current).reverse()) stack.push((current as Record<string, unknown>)[key]);
  }
}

export function scanText(text: string, found: (kind: SecretKind, value: string) => void): void {
  const taken: [number, number][] = [];
  for (const pattern of SECRET_PATTERNS) {
    if (!pattern.clues.some((clue) => text.includes(clue))) continue;
    pattern.regex.lastIndex = 0;
    for (const match of text.matchAll(pattern.regex)) {
      const value = match[pattern.group];
      if (!value) continue;
      const start = match.index! + match[0].indexOf(value);
      // A span already claimed by a more specific pattern is not found twice.
      if (taken.some(([a, b]) => start < b && start + value.length > a)) continue;
      taken.push([start, start + value.length]);
      found(pattern.kind, value);
    }
  }
}

export function scanMessages(messages: readonly Message[]): Finding[] {
  const byValue = new Map<string, Finding>();
  // The messages each finding was seen in, as a set: a value repeated in 200,000 messages made
  // `messageIds.includes` quadratic (a 600 MB session's scan took 345 s).
  const seenIn = new Map<Finding, Set<string>>();
  const counts: Partial<Record<SecretKind, number>> = {};
  for (const message of messages) {
    for (const text of strings([message.blocks, message.meta])) {
      scanText(text, (kind, value) => {
        let finding = byValue.get(value);
        if (!finding) {
          counts[kind] = (counts[kind] ?? 0) + 1;
          finding = { id: `${kind}-${counts[kind]}`, kind, value, occurrences: 0, messageIds: [], preview: previewSecret(value) };
          byValue.set(value, finding);
          seenIn.set(finding, new Set());
        }
        finding.occurrences++;
        const messages = seenIn.get(finding)!;
        if (!messages.has(message.id)) {
          messages.add(message.id);
          finding.messageIds.push(message.id);
        }
      });
    }
  }
  return [...byValue.values()];
}

export type Masks = Map<string, string>;

/** The same placeholder for the same value, wherever it appears. */
export function masksFor(findings: readonly Finding[]): Masks {
  return new Map(findings.map((f) => [f.value, `[REDACTED ${f.id}]`]));
}

export function maskString(text: string, masks: Masks): string {
  if (masks.size === 0) return text;
  let out = text;
  // Longest first, so a value inside another is not replaced half way.
  for (const [value, placeholder] of [...masks].sort((a, b) => b[0].length - a[0].length)) {
    if (out.includes(value)) out = out.split(value).join(placeholder);
  }
  return out;
}

/** A deep copy of `value` with every string masked (keys too). */
export function maskValue<T>(value: T, masks: Masks): T {
  if (masks.size === 0) return value;
  const copy = (current: unknown): unknown => {
    if (typeof current === "string") return maskString(current, masks);
    if (Array.isArray(current)) return current.map(copy);
    if (current && typeof current === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(current)) out[maskString(key, masks)] = copy(inner);
      return out;
    }
    return current;
  };
  return copy(value) as T;
}

/** A checkpoint with the chosen values masked everywhere; changed payloads are hashed again. */
export async function redactCheckpoint(checkpoint: Checkpoint, findings: readonly Finding[]): Promise<Checkpoint> {
  const masks = masksFor(findings);
  if (masks.size === 0) return checkpoint;
  const active = maskValue(checkpoint.active, masks).map((message) => ({
    ...message,
    blocks: message.blocks.map((block) => (block.type === "omitted" ? { ...block, label: maskString(block.label, masks) } : block)),
  }));
  const payloads = checkpoint.archive.map((entry) => maskValue(entry.payload, masks));
  const digests = await digestPayloads(payloads);
  const archive: ArchiveEntry[] = checkpoint.archive.map((entry, i) => ({ ...entry, sha256: digests[i]!.sha256, bytes: digests[i]!.bytes, payload: payloads[i] }));
  // Markers carry the hash of what they point at: keep them in step with the masked payloads.
  const byId = new Map(archive.map((e) => [e.id, e]));
  for (const message of active) {
    message.blocks = message.blocks.map((block) => {
      if (block.type !== "omitted") return block;
      const entry = byId.get(block.recoveryId);
      return entry ? { ...block, sha256: entry.sha256, bytes: entry.bytes } : block;
    });
  }
  const kinds = [...new Set(findings.map((f) => f.kind))].sort();
  return { ...checkpoint, source: { ...checkpoint.source, redaction: { masked: findings.length, kinds } } as Checkpoint["source"], active, archive };
}
