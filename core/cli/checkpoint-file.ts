/**
 * Reading a checkpoint file. A checkpoint is one JSON object; past V8's
 * string limit (0x1fffffe8 UTF-16 units, about 512 MB) it cannot be decoded
 * to one string, so a 490 MB session's 557 MB checkpoint, written by this very
 * CLI, could not be verified. Above the limit the bytes are split instead:
 * each top-level field, and each element of `active` and `archive`, is parsed
 * on its own (every one far below the limit). `verify` goes further and holds
 * neither the archive nor the active view: entries and messages are checked
 * as they are read (verifyCheckpointFile), and only ids, hashes and places are
 * kept, so its memory follows the count of markers and entries, not the file.
 */
import { closeSync } from "node:fs";
import { CHECKPOINT_SCHEMA, type Checkpoint } from "../checkpoint.ts";
import { bytesReader, objectParts, type ByteReader, type ObjectPart } from "../checkpoint-scan.ts";
import { CheckpointVerifier, type CheckpointProblem } from "../verify.ts";
import { FileError, READ_PIECE, openInput, readInput, readPiece } from "./input.ts";

/** V8's longest string, in UTF-16 units; a file of at most this many bytes always decodes. */
export const V8_STRING_LIMIT = 0x1fffffe8;

export function readCheckpoint(file: string, stringLimit = V8_STRING_LIMIT): Checkpoint {
  const bytes = readInput(file);
  let value: unknown;
  try {
    value = bytes.length <= stringLimit ? JSON.parse(new TextDecoder().decode(bytes)) : parseTopLevelPieces(bytes, ARRAY_FIELDS);
  } catch (error) {
    throw notACheckpoint(file, error);
  }
  checkShape(file, value as Checkpoint);
  return value as Checkpoint;
}

function checkShape(file: string, checkpoint: Checkpoint): void {
  if (!checkpoint || checkpoint.schema !== CHECKPOINT_SCHEMA || !Array.isArray(checkpoint.archive) || !Array.isArray(checkpoint.active)) {
    throw new FileError(file, 1, `not a ${CHECKPOINT_SCHEMA} checkpoint`);
  }
}

function notACheckpoint(file: string, error: unknown): FileError {
  if (error instanceof FileError) return error;
  return new FileError(file, 1, `not a checkpoint: ${error instanceof Error ? error.message : error}`);
}

/** Archive bytes parsed before their entries are hashed together (one call per batch keeps the hashing fast). */
const VERIFY_BATCH_BYTES = 4 * 1024 * 1024;

export interface FileVerification {
  payloads: number;
  problems: CheckpointProblem[];
}

/**
 * verifyCheckpoint's checks on a checkpoint file, read once in pieces: each
 * archive entry is parsed, hashed with a few megabytes of its neighbours, and
 * let go; each active message gives the verifier its markers, id and role and
 * is let go; only the small fields are kept. `onBatch` sees each batch handed to the verifier (tests).
 */
export async function verifyCheckpointFile(file: string, pieceBytes = READ_PIECE, onBatch?: (entries: readonly unknown[], bytes: number) => void): Promise<FileVerification> {
  const verifier = new CheckpointVerifier();
  const fields: Record<string, unknown> = {};
  let batch: unknown[] = [];
  let batchBytes = 0;
  const flush = async () => {
    onBatch?.(batch, batchBytes);
    await verifier.addEntries(batch);
    batch = [];
    batchBytes = 0;
  };
  try {
    for (const part of checkpointFileParts(file, pieceBytes)) {
      if (part.kind === "field") {
        fields[part.key] = part.value;
        // A wrong schema stops the read at once, before a large file is hashed for nothing.
        if (part.key === "schema" && part.value !== CHECKPOINT_SCHEMA) break;
      } else if (part.kind === "array") fields[part.key] = [];
      else if (part.key === "active") verifier.addActive([part.value]);
      else {
        batch.push(part.value);
        batchBytes += part.bytes;
        if (batchBytes >= VERIFY_BATCH_BYTES) await flush();
      }
    }
  } catch (error) {
    throw notACheckpoint(file, error);
  }
  // `active` and `archive` went to the verifier as they came (each left here as an empty array): the shape is checked like a whole checkpoint's.
  checkShape(file, fields as unknown as Checkpoint);
  if (batch.length > 0) await flush();
  const checkpoint = fields as unknown as Checkpoint;
  return { payloads: verifier.entries, problems: verifier.finish({ strategy: checkpoint.strategy, stats: checkpoint.stats }) };
}

/** The fields whose arrays are parsed element by element. */
const ARRAY_FIELDS = new Set(["active", "archive"]);

/**
 * One JSON object from its bytes, without ever decoding them whole: each
 * field's value (or, for `arrayFields`, each element) is cut out by a scan
 * that follows strings and nesting, then parsed. Throws an Error naming the
 * byte offset of a fault.
 */
export function parseTopLevelPieces(bytes: Uint8Array, arrayFields: ReadonlySet<string>): Record<string, unknown> {
  return collectParts(objectParts(bytesReader(bytes), arrayFields));
}

function collectParts(parts: Iterable<ObjectPart>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of parts) {
    if (part.kind === "field") out[part.key] = part.value;
    else if (part.kind === "array") out[part.key] = [];
    else (out[part.key] as unknown[]).push(part.value);
  }
  return out;
}

/** A checkpoint file's parts, read from the disk a piece at a time (a pipe or FIFO too: it is read once, front to back). */
export function* checkpointFileParts(file: string, pieceBytes = READ_PIECE): Generator<ObjectPart> {
  const fd = openInput(file);
  try {
    const read: ByteReader = (into, offset, length) => readPiece(file, fd, into, offset, length);
    yield* objectParts(read, ARRAY_FIELDS, pieceBytes);
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}
