/**
 * Serializing a checkpoint. Equal to JSON.stringify(checkpoint), but archive
 * payloads serialized while hashing are reused instead of serialized again:
 * on a 100 MB session that is most of the output. Payload objects are never
 * mutated after they are read, so a JSON string remembered for one stays true.
 */
import type { ArchiveEntry, Checkpoint } from "./checkpoint.ts";

const payloadJson = new WeakMap<object, string>();

export function rememberPayloadJson(payload: object, json: string): void {
  payloadJson.set(payload, json);
}

export function serializeCheckpoint(checkpoint: Checkpoint): string {
  return checkpointChunks(checkpoint).join("");
}

/**
 * The same text in pieces, for writing a large checkpoint to a file or a Blob
 * without first building one giant string.
 */
export function checkpointChunks(checkpoint: Checkpoint): string[] {
  const { archive, ...rest } = checkpoint;
  // `archive` is not the last key of a checkpoint: put it back in its place.
  const head = JSON.stringify({ ...rest, archive: 0, stats: undefined });
  const chunks = [head.slice(0, -2), "["];
  archive.forEach((entry, i) => {
    if (i > 0) chunks.push(",");
    chunks.push(serializeEntry(entry));
  });
  chunks.push('],"stats":', JSON.stringify(checkpoint.stats), "}");
  return chunks;
}

function serializeEntry(entry: ArchiveEntry): string {
  const { payload, ...rest } = entry;
  const known = typeof payload === "object" && payload !== null ? payloadJson.get(payload) : undefined;
  if (known === undefined) return JSON.stringify(entry);
  return JSON.stringify(rest).slice(0, -1) + ',"payload":' + known + "}";
}
