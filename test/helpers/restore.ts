/**
 * "Nothing is lost", payload by payload: a branch message is either in the
 * active view as it was, or rebuilt exactly from what is there and the
 * archive entries of that message, each payload put back at its own JSON
 * pointer. A message that lost one payload while another of its payloads was
 * archived fails here (a check that any entry of the message exists would
 * let it pass).
 */
import type { ArchiveEntry } from "../../core/checkpoint.ts";
import type { Message } from "../../core/model.ts";

function pointerSegments(path: string): string[] {
  return path === ""
    ? []
    : path
        .slice(1)
        .split("/")
        .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** `target` with the value at `path` replaced by `value` (a copy along the path). */
function setAt(target: unknown, segments: readonly string[], value: unknown): unknown {
  if (segments.length === 0) return value;
  const [head, ...rest] = segments as [string, ...string[]];
  const copy = (Array.isArray(target) ? [...target] : { ...(target as Record<string, unknown>) }) as Record<string, unknown>;
  copy[head] = setAt(copy[head], rest, value);
  return copy;
}

/** The message rebuilt from its active version (if any) and its archived payloads, shortest paths first. */
export function restoreMessage(kept: Message | undefined, entries: readonly ArchiveEntry[]): unknown {
  let restored: unknown = kept;
  for (const entry of [...entries].sort((a, b) => pointerSegments(a.path).length - pointerSegments(b.path).length)) {
    restored = setAt(restored, pointerSegments(entry.path), entry.payload);
  }
  return restored;
}

/** Branch message ids whose every payload cannot be put back from the active view and the archive. */
export function lostMessages(branch: readonly Message[], active: readonly Message[], archive: readonly ArchiveEntry[]): string[] {
  const kept = new Map(active.map((m) => [m.id, m]));
  const entries = new Map<string, ArchiveEntry[]>();
  for (const entry of archive) entries.set(entry.messageId, [...(entries.get(entry.messageId) ?? []), entry]);
  return branch.filter((message) => JSON.stringify(restoreMessage(kept.get(message.id), entries.get(message.id) ?? [])) !== JSON.stringify(message)).map((message) => message.id);
}
