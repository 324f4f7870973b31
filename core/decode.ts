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
