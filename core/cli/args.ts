/** Argument parsing and file I/O for the CLI (Node only). */
import { readFileSync } from "node:fs";
import { isFormatName } from "../formats/detect.ts";
import { SessionError, type Session } from "../model.ts";
import { loadSession } from "../session.ts";

export class UsageError extends Error {}

export interface ParsedArgs {
  command: string;
  positional: string[];
  flags: Map<string, string | true>;
}

const VALUE_FLAGS = new Set(["leaf", "format", "strategy", "max-prose-characters", "previous", "output", "reader", "endpoint", "model", "memory", "timeout", "rounds", "plant", "plant-at", "distractor", "keep"]);
const BOOLEAN_FLAGS = new Set(["strict", "json", "help", "redact", "no-redact"]);

export function parseArgs(argv: string[]): ParsedArgs {
  const [command = "help", ...rest] = argv;
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (VALUE_FLAGS.has(name)) {
      const value = inline ?? rest[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else if (BOOLEAN_FLAGS.has(name)) {
      flags.set(name, true);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return { command, positional, flags };
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  return typeof value === "string" ? value : undefined;
}

/** The session file named on the command line, read once: its bytes are returned for hashing. */
export function readSessionFile(args: ParsedArgs): { file: string; bytes: Uint8Array; session: Session } {
  const file = args.positional[0];
  if (!file) throw new UsageError(`${args.command} needs a session file`);
  const format = stringFlag(args, "format");
  if (format !== undefined && !isFormatName(format)) throw new UsageError(`unknown format "${format}"`);
  const bytes = readInput(file);
  try {
    return { file, bytes, session: loadSession(bytes, { format, strict: args.flags.has("strict") }) };
  } catch (error) {
    if (error instanceof SessionError) throw new FileError(file, error.line, error.reason);
    throw error;
  }
}

export class FileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}

export function readInput(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new FileError(file, 0, code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : `cannot read (${code ?? error})`);
  }
}
