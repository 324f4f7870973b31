/**
 * Bytes → text. Session files are untrusted: accept a UTF-8 BOM, refuse
 * binary data and invalid UTF-8 with a line number instead of guessing.
 */
import { SessionError } from "./model.ts";

const fatalDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const lenientDecoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });

export function decodeSessionBytes(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new SessionError(0, "the file is empty");
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    throw new SessionError(lineAtByte(bytes, nul), "binary data (a NUL byte): this is not a text session file");
  }
  try {
    return fatalDecoder.decode(bytes);
  } catch {
    // Find where the bad sequence is so the user can look at it.
    const text = lenientDecoder.decode(bytes);
    const at = text.indexOf("\uFFFD");
    const line = at === -1 ? 0 : countLines(text, at);
    throw new SessionError(line, "the file is not valid UTF-8 text");
  }
}

/**
 * A file whose end is NUL bytes only (with any line breaks among them): what a writer that crashed, or
 * a file system that reserved the space before the data reached it, leaves after the last line. The
 * text before it is the session; the tail is no part of it. Null when the file holds no NUL, or a NUL
 * with text after it (binary data, refused as before).
 */
export interface NulTail {
  /** The byte the tail begins at: its first NUL. */
  start: number;
  /** Its 1-based line. */
  line: number;
  /** How many NUL bytes it holds. */
  nuls: number;
}

export function nulTailOf(bytes: Uint8Array): NulTail | null {
  const first = bytes.indexOf(0);
  if (first === -1) return null;
  if (!onlyNulsAndBreaks(bytes, first)) return null;
  let nuls = 0;
  for (let i = first; i < bytes.length; i++) if (bytes[i] === 0) nuls++;
  // Cut at the first NUL, not at its line's start: a line it cut short is read (and warned of) as an unfinished last line.
  return { start: first, line: lineAtByte(bytes, first), nuls };
}

/** True when `bytes` from `from` on are NULs and line breaks only. */
export function onlyNulsAndBreaks(bytes: Uint8Array, from: number): boolean {
  for (let i = from; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte !== 0 && byte !== 10 && byte !== 13) return false;
  }
  return true;
}

/** The warning a NUL-filled tail gives (nulTailOf): read up to it, and said so. */
export function nulTailWarning(tail: NulTail): { line: number; message: string } {
  return {
    line: tail.line,
    message: `the file ends in ${tail.nuls} NUL bytes from line ${tail.line} (a write that never finished): read up to there`,
  };
}

function lineAtByte(bytes: Uint8Array, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (bytes[i] === 10) line++;
  return line;
}

function countLines(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * UTF-8 for a file that arrives in pieces: the same text, and the same
 * failures (a TypeError), as decoding it whole. Two ways, because each
 * platform is fast at a different one (100 MB in 8 MB pieces, measured here):
 * Chromium's TextDecoder in `{stream: true}` mode took 0.42–0.50 s and
 * decoding each piece on its own 0.49–0.57 s; Node 20's stream mode took
 * 1.5 s against 0.5 s for one whole decode.
 */
export interface TextPieces {
  decode(piece: Uint8Array): string;
  /** The end of the file: a character still cut there is an error. */
  finish(): string;
}

/** TextDecoder's own stream mode (the browser's choice). */
export class StreamTextPieces implements TextPieces {
  private readonly decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

  decode(piece: Uint8Array): string {
    return this.decoder.decode(piece, { stream: true });
  }

  finish(): string {
    return this.decoder.decode();
  }
}

/**
 * Each piece decoded on its own up to its last whole character; a character
 * cut by the boundary is finished with the next piece. A BOM is dropped only
 * at the very start, as a whole decode does. (Node's choice.)
 */
export class PieceDecoder implements TextPieces {
  private readonly decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  /** The start of a character cut by the last piece's end. */
  private carry: Uint8Array | null = null;
  private atStart = true;

  /** Throws a TypeError on bytes that are not UTF-8, like a fatal TextDecoder. */
  decode(piece: Uint8Array): string {
    let prefix = "";
    let bytes = piece;
    if (this.carry) {
      const carry = this.carry;
      const missing = sequenceLength(carry[0]!) - carry.length;
      const take = Math.min(missing, piece.length);
      const joined = new Uint8Array(carry.length + take);
      joined.set(carry);
      joined.set(piece.subarray(0, take), carry.length);
      if (take < missing) {
        this.carry = joined;
        return "";
      }
      this.carry = null;
      prefix = this.decoder.decode(joined);
      bytes = piece.subarray(take);
    }
    const whole = wholeCharacters(bytes);
    // A copy, never a view: the caller may reuse the piece's memory for the next read
    // (the CLI does), and Buffer#slice is a view, unlike Uint8Array#slice.
    if (whole < bytes.length) this.carry = copyOf(bytes.subarray(whole));
    return this.startOfFile(prefix + this.decoder.decode(bytes.subarray(0, whole)));
  }

  finish(): string {
    const carry = this.carry;
    this.carry = null;
    return carry ? this.startOfFile(this.decoder.decode(carry)) : "";
  }

  private startOfFile(text: string): string {
    if (!this.atStart || text === "") return text;
    this.atStart = false;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}

function copyOf(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

/** Bytes a UTF-8 sequence takes, from its first byte (1 for anything that cannot start one: decoding will say so). */
function sequenceLength(first: number): number {
  if (first >= 0xf0 && first <= 0xf7) return 4;
  if (first >= 0xe0) return first <= 0xef ? 3 : 1;
  if (first >= 0xc0) return 2;
  return 1;
}

/** How many of `bytes` end on a character boundary: all of them unless the last character is cut. */
function wholeCharacters(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i >= 0 && i >= bytes.length - 4; i--) {
    const byte = bytes[i]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: its first byte is further back
    return i + sequenceLength(byte) <= bytes.length ? bytes.length : i;
  }
  return bytes.length;
}
