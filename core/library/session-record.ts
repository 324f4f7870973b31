/**
 * What a session's own records say about it, for the library's columns: the
 * first and last time a record states, the model its replies name, and the
 * working directory. Read from the records, never from the file's
 * modification time (a copied or checked-out file is dated today).
 */
import type { Session } from "../model.ts";
import { sessionCwd } from "../session-info.ts";

export interface SessionRecord {
  /** ISO times of the earliest and latest records that state one; null when none does. */
  first: string | null;
  last: string | null;
  /** The model the newest reply names (Claude Code, Pi, Gemini: `model`; OpenCode: `modelID`). */
  model: string | null;
  /** The working directory the session recorded. */
  cwd: string | null;
}

/** A time a record field states: an ISO string, or epoch milliseconds (OpenCode, Cline). */
function timeOf(value: unknown): number | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  // Epoch seconds or small numbers are counters, not times.
  if (typeof value === "number" && value < 1e11) return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : ms;
}

const asRecord = (value: unknown): Record<string, unknown> | undefined => (typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined);

export function sessionRecord(session: Session): SessionRecord {
  let first = Infinity;
  let last = -Infinity;
  const see = (value: unknown) => {
    const ms = timeOf(value);
    if (ms === null) return;
    if (ms < first) first = ms;
    if (ms > last) last = ms;
  };
  const header = asRecord(session.header);
  for (const value of [
    header?.timestamp,
    header?.startTime,
    header?.lastUpdated,
    asRecord(header?.payload)?.timestamp,
    asRecord(header?.time)?.created,
    asRecord(header?.time)?.updated,
  ])
    see(value);
  let model: string | null = null;
  for (const entry of session.entries) {
    see(asRecord(entry.data)?.timestamp);
    for (const message of entry.messages) {
      const meta = message.meta;
      see(meta.timestamp);
      see(asRecord(meta.record)?.timestamp);
      see(asRecord(meta.time)?.created);
      see(meta.ts);
      see(asRecord(meta.request)?.request_start_timestamp_ms);
      if (message.role === "assistant") {
        const named = meta.model ?? meta.modelID ?? asRecord(meta.message)?.model;
        if (typeof named === "string" && named !== "" && named !== "<synthetic>") model = named;
      }
    }
  }
  const iso = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : null);
  return { first: iso(first), last: iso(last), model, cwd: sessionCwd(session) ?? null };
}
