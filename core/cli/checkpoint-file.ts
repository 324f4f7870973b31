/**
 * Reading a checkpoint file. A checkpoint is one JSON object; past V8's
 * string limit (0x1fffffe8 UTF-16 units, about 512 MB) it cannot be decoded
 * to one string, so a 490 MB session's 557 MB checkpoint, written by this very
 * CLI, could not be verified. Above the limit the bytes are split instead:
 * each top-level field, and each element of `active` and `archive`, is parsed
 * on its own (every one far below the limit).
 */
import { CHECKPOINT_SCHEMA, type Checkpoint } from "../checkpoint.ts";
import { FileError, readInput } from "./input.ts";

/** V8's longest string, in UTF-16 units; a file of at most this many bytes always decodes. */
export const V8_STRING_LIMIT = 0x1fffffe8;

export function readCheckpoint(file: string, stringLimit = V8_STRING_LIMIT): Checkpoint {
  const bytes = readInput(file);
  let value: unknown;
  try {
    value = bytes.length <= stringLimit ? JSON.parse(new TextDecoder().decode(bytes)) : parseTopLevelPieces(bytes, ARRAY_FIELDS);
  } catch (error) {
    if (error instanceof FileError) throw error;
    throw new FileError(file, 1, `not a checkpoint: ${error instanceof Error ? error.message : error}`);
  }
  const checkpoint = value as Checkpoint;
  if (!checkpoint || checkpoint.schema !== CHECKPOINT_SCHEMA || !Array.isArray(checkpoint.archive) || !Array.isArray(checkpoint.active)) {
    throw new FileError(file, 1, `not a ${CHECKPOINT_SCHEMA} checkpoint`);
  }
  return checkpoint;
}

/** The fields whose arrays are parsed element by element. */
const ARRAY_FIELDS = new Set(["active", "archive"]);

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * One JSON object from its bytes, without ever decoding them whole: each
 * field's value (or, for `arrayFields`, each element) is cut out by a scan
 * that follows strings and nesting, then parsed. Throws a SyntaxError-like
 * Error naming the byte offset of a fault.
 */
export function parseTopLevelPieces(bytes: Uint8Array, arrayFields: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let at = skipSpace(bytes, 0);
  expect(bytes, at, 0x7b);
  at = skipSpace(bytes, at + 1);
  if (bytes[at] === 0x7d) return out;
  for (;;) {
    expect(bytes, at, 0x22);
    const keyEnd = valueEnd(bytes, at);
    const key = parse(bytes, at, keyEnd) as string;
    at = skipSpace(bytes, keyEnd);
    expect(bytes, at, 0x3a);
    at = skipSpace(bytes, at + 1);
    if (arrayFields.has(key) && bytes[at] === 0x5b) {
      const items: unknown[] = [];
      at = skipSpace(bytes, at + 1);
      if (bytes[at] === 0x5d) at++;
      else {
        for (;;) {
          const end = valueEnd(bytes, at);
          items.push(parse(bytes, at, end));
          at = skipSpace(bytes, end);
          if (bytes[at] === 0x2c) {
            at = skipSpace(bytes, at + 1);
            continue;
          }
          expect(bytes, at, 0x5d);
          at++;
          break;
        }
      }
      out[key] = items;
    } else {
      const end = valueEnd(bytes, at);
      out[key] = parse(bytes, at, end);
      at = end;
    }
    at = skipSpace(bytes, at);
    if (bytes[at] === 0x2c) {
      at = skipSpace(bytes, at + 1);
      continue;
    }
    expect(bytes, at, 0x7d);
    if (skipSpace(bytes, at + 1) !== bytes.length) throw new Error(`unexpected data after the object at byte ${at + 1}`);
    return out;
  }
}

function parse(bytes: Uint8Array, from: number, to: number): unknown {
  try {
    return JSON.parse(decoder.decode(bytes.subarray(from, to)));
  } catch (error) {
    throw new Error(`bad JSON value at bytes ${from}–${to}: ${error instanceof Error ? error.message.slice(0, 120) : error}`);
  }
}

function skipSpace(bytes: Uint8Array, at: number): number {
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x0a || bytes[at] === 0x0d || bytes[at] === 0x09)) at++;
  return at;
}

function expect(bytes: Uint8Array, at: number, byte: number): void {
  if (bytes[at] !== byte) throw new Error(`expected "${String.fromCharCode(byte)}" at byte ${at}${at >= bytes.length ? " (the file ends there)" : ""}`);
}

/** The end (exclusive) of the JSON value starting at `from`: a string, an object or array (nesting followed), or a scalar. */
function valueEnd(bytes: Uint8Array, from: number): number {
  const first = bytes[from];
  if (first === 0x22) {
    for (let i = from + 1; i < bytes.length; i++) {
      if (bytes[i] === 0x5c) i++;
      else if (bytes[i] === 0x22) return i + 1;
    }
    throw new Error(`a string starting at byte ${from} never ends`);
  }
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (let i = from; i < bytes.length; i++) {
      const c = bytes[i];
      if (c === 0x22) i = valueEnd(bytes, i) - 1;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    throw new Error(`a value starting at byte ${from} never ends`);
  }
  let i = from;
  while (i < bytes.length && bytes[i] !== 0x2c && bytes[i] !== 0x7d && bytes[i] !== 0x5d && bytes[i] !== 0x20 && bytes[i] !== 0x0a && bytes[i] !== 0x0d && bytes[i] !== 0x09) i++;
  if (i === from) throw new Error(`expected a value at byte ${from}`);
  return i;
}
