/**
 * The archive digests of the strategies' payloads, computed once per payload
 * object. Payloads are the session's own values (a message, its block list,
 * a block), and several strategies move the same ones out: for a 100 MB
 * session's report, pi-default, brief and handoff each archived every
 * message of the branch, and hashing them again was a third of their time.
 *
 * Keyed by object identity, so this is exact only because a session's
 * messages and blocks never change once read (the archive's promise rests on
 * the same fact: a payload is the value exactly as read). Copies a strategy
 * or the redaction makes are new objects and hashed on their own. Checking
 * an archive (core/archive.ts verifyArchive) never goes through here: it
 * always recomputes.
 */
import { digestPayloads, type PayloadDigest } from "../hash.ts";

const known = new WeakMap<object, PayloadDigest>();

export async function payloadDigests(payloads: readonly unknown[]): Promise<PayloadDigest[]> {
  const out: PayloadDigest[] = new Array(payloads.length);
  const missing: number[] = [];
  for (let i = 0; i < payloads.length; i++) {
    const payload = payloads[i];
    const digest = isObject(payload) ? known.get(payload) : undefined;
    if (digest) out[i] = digest;
    else missing.push(i);
  }
  if (missing.length === 0) return out;
  const digests = await digestPayloads(missing.map((i) => payloads[i]));
  missing.forEach((i, k) => {
    const payload = payloads[i];
    out[i] = digests[k]!;
    if (isObject(payload)) known.set(payload, digests[k]!);
  });
  return out;
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}
