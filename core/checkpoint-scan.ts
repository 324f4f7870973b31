/**
 * Reading one JSON object in pieces: each top-level field's value, or for the
 * named array fields each element, is cut out of the bytes by a scan that
 * follows strings and nesting, then parsed on its own. The bytes come from a
 * `read` callback a window at a time, and a window keeps only the value being
 * cut out, so a checkpoint of any size is read with memory bounded by its
 * largest element (never the whole file, never one string past V8's limit).
 */

/** Fills `into` from `offset` with at most `length` bytes; returns how many it wrote, 0 at the end. */
export type ByteReader = (into: Uint8Array, offset: number, length: number) => number;

export type ObjectPart =
  /** A whole top-level field. */
  | { kind: "field"; key: string; value: unknown }
  /** An array field begins (so an empty array is seen too). */
  | { kind: "array"; key: string }
  /** One element of an array field, with its size in bytes. */
  | { kind: "item"; key: string; value: unknown; bytes: number };

const decoder = new TextDecoder("utf-8", { fatal: true });

/** The bytes read so far that are still needed, addressed by their offset in the whole input. */
class ByteWindow {
  buffer: Uint8Array;
  /** Input offset of buffer[0]. */
  base = 0;
  /** Bytes of the buffer that hold input. */
  filled = 0;
  ended = false;

  constructor(
    private readonly read: ByteReader,
    private readonly pieceBytes: number,
  ) {
    this.buffer = new Uint8Array(pieceBytes);
  }

  /** Input offset one past the last byte read. */
  get end(): number {
    return this.base + this.filled;
  }

  /**
   * Reads more input, dropping what lies before `keepFrom`. Reads at least a
   * piece, or as much as is kept: a value larger than a piece is rescanned
   * from its start after each read, so doubling keeps the rescans linear.
   */
  more(keepFrom: number): boolean {
    if (this.ended) return false;
    const keep = this.end - keepFrom;
    const want = Math.max(this.pieceBytes, keep);
    if (keep + want > this.buffer.length) {
      const grown = new Uint8Array(keep + want);
      grown.set(this.buffer.subarray(keepFrom - this.base, this.filled));
      this.buffer = grown;
    } else {
      this.buffer.copyWithin(0, keepFrom - this.base, this.filled);
    }
    this.base = keepFrom;
    this.filled = keep;
    const read = this.read(this.buffer, this.filled, this.buffer.length - this.filled);
    if (read === 0) this.ended = true;
    this.filled += read;
    return read > 0;
  }

  /** The byte at input offset `at`, reading more if needed (keeping from `keepFrom`); -1 at the end of the input. */
  byteAt(at: number, keepFrom: number): number {
    while (at >= this.end) if (!this.more(Math.min(keepFrom, at))) return -1;
    return this.buffer[at - this.base]!;
  }

  /** The end (exclusive) of the JSON value starting at `from`, reading as much as it needs. */
  valueEnd(from: number): number {
    for (;;) {
      const end = valueEnd(this.buffer, from - this.base, this.filled, this.ended, this.base);
      if (end >= 0) return end + this.base;
      if (!this.more(from)) return valueEnd(this.buffer, from - this.base, this.filled, true, this.base) + this.base;
    }
  }

  parse(from: number, to: number): unknown {
    try {
      return JSON.parse(decoder.decode(this.buffer.subarray(from - this.base, to - this.base)));
    } catch (error) {
      throw new Error(`bad JSON value at bytes ${from}–${to}: ${error instanceof Error ? error.message.slice(0, 120) : error}`);
    }
  }
}

/**
 * The parts of one JSON object, in the order of its bytes. Throws an Error
 * naming the byte offset of a fault (a cut file, stray data, bad JSON).
 */
export function* objectParts(read: ByteReader, arrayFields: ReadonlySet<string>, pieceBytes = 8 * 1024 * 1024): Generator<ObjectPart> {
  const w = new ByteWindow(read, pieceBytes);
  let at = skipSpace(w, 0);
  expect(w, at, 0x7b);
  at = skipSpace(w, at + 1);
  if (w.byteAt(at, at) === 0x7d) return finish(w, at);
  for (;;) {
    expect(w, at, 0x22);
    const keyEnd = w.valueEnd(at);
    const key = w.parse(at, keyEnd) as string;
    at = skipSpace(w, keyEnd);
    expect(w, at, 0x3a);
    at = skipSpace(w, at + 1);
    if (arrayFields.has(key) && w.byteAt(at, at) === 0x5b) {
      yield { kind: "array", key };
      at = skipSpace(w, at + 1);
      if (w.byteAt(at, at) === 0x5d) at++;
      else {
        for (;;) {
          const end = w.valueEnd(at);
          yield { kind: "item", key, value: w.parse(at, end), bytes: end - at };
          at = skipSpace(w, end);
          if (w.byteAt(at, at) === 0x2c) {
            at = skipSpace(w, at + 1);
            continue;
          }
          expect(w, at, 0x5d);
          at++;
          break;
        }
      }
    } else {
      const end = w.valueEnd(at);
      yield { kind: "field", key, value: w.parse(at, end) };
      at = end;
    }
    at = skipSpace(w, at);
    if (w.byteAt(at, at) === 0x2c) {
      at = skipSpace(w, at + 1);
      continue;
    }
    return finish(w, at);
  }
}

/** The object's closing brace must be the last thing in the input but space. */
function finish(w: ByteWindow, at: number): void {
  expect(w, at, 0x7d);
  if (w.byteAt(skipSpace(w, at + 1), at) !== -1) throw new Error(`unexpected data after the object at byte ${at + 1}`);
}

/** A ByteReader over bytes already in memory. */
export function bytesReader(bytes: Uint8Array): ByteReader {
  let at = 0;
  return (into, offset, length) => {
    const n = Math.min(length, bytes.length - at);
    into.set(bytes.subarray(at, at + n), offset);
    at += n;
    return n;
  };
}

function skipSpace(w: ByteWindow, at: number): number {
  for (;;) {
    const c = w.byteAt(at, at);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return at;
    at++;
  }
}

function expect(w: ByteWindow, at: number, byte: number): void {
  const found = w.byteAt(at, at);
  if (found !== byte) throw new Error(`expected "${String.fromCharCode(byte)}" at byte ${at}${found === -1 ? " (the file ends there)" : ""}`);
}

/**
 * The end (exclusive) of the JSON value starting at buffer index `from`, or
 * -1 when the value runs past `filled` and more input may follow (`ended`
 * false). With `ended`, a value cut by the end of the input is an error
 * (named by its input offset: `base` is the input offset of bytes[0]).
 */
function valueEnd(bytes: Uint8Array, from: number, filled: number, ended: boolean, base: number): number {
  const first = bytes[from];
  if (first === 0x22) return stringEnd(bytes, from, filled, ended, base);
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (let i = from; i < filled; i++) {
      const c = bytes[i];
      if (c === 0x22) {
        const end = stringEnd(bytes, i, filled, ended, base);
        if (end < 0) return -1;
        i = end - 1;
      } else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    if (!ended) return -1;
    throw new Error(`a value starting at byte ${base + from} never ends`);
  }
  let i = from;
  while (i < filled && bytes[i] !== 0x2c && bytes[i] !== 0x7d && bytes[i] !== 0x5d && bytes[i] !== 0x20 && bytes[i] !== 0x0a && bytes[i] !== 0x0d && bytes[i] !== 0x09) i++;
  // A scalar that reaches the end of the window may go on in the next read.
  if (i === filled && !ended) return -1;
  if (i === from) throw new Error(`expected a value at byte ${base + from}`);
  return i;
}

function stringEnd(bytes: Uint8Array, from: number, filled: number, ended: boolean, base: number): number {
  for (let i = from + 1; i < filled; i++) {
    if (bytes[i] === 0x5c) i++;
    else if (bytes[i] === 0x22) return i + 1;
  }
  if (!ended) return -1;
  throw new Error(`a string starting at byte ${base + from} never ends`);
}
