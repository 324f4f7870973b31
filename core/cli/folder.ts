/**
 * A folder on the command line: the sessions that are several files (a
 * Cline / Roo / Kilo task folder; a Claude Code session's `<sessionId>/`
 * folder of subagents, whose `<sessionId>.jsonl` sits beside it). The files
 * that belong to the session are read and handed to loadSessionFiles; the
 * reported size and SHA-256 are of those files' bytes in the order read
 * (sorted by path), so the same folder always gives the same figures.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import type { FormatName } from "../model.ts";
import { SessionError } from "../model.ts";
import { loadSessionFiles, type NamedFile } from "../session-files.ts";
import { discoverSessions, READ_ROLES } from "../library/discover.ts";
import { FileError } from "./file-error.ts";
import type { SessionFile } from "./session-file.ts";
import { walkFolder } from "./library-walk.ts";

const TASK_FILES = new Set(["api_conversation_history.json", "ui_messages.json", "task_metadata.json"]);
const MAX_DEPTH = 3;

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // missing or unreadable: the file path reports it
  }
}

/** Files of a session folder, by path relative to it. */
function sessionFilesIn(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string, depth: number) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH) walk(path, depth + 1);
      else if (entry.isFile() && (TASK_FILES.has(entry.name) || entry.name.endsWith(".jsonl") || /^agent-.+\.meta\.json$/.test(entry.name))) out.push(path);
    }
  };
  walk(dir, 0);
  // A Claude Code `<sessionId>/` folder: its session file is the sibling `<sessionId>.jsonl`.
  const sibling = join(dirname(dir), `${basename(dir)}.jsonl`);
  if (existsSync(sibling) && !out.some((p) => TASK_FILES.has(basename(p)))) out.push(sibling);
  return out.sort();
}

/**
 * The one session an agent's folder holds (a Gemini CLI project folder with
 * one chat and its saved tool outputs, a folder with one rollout), found the
 * way the library finds sessions (core/library/discover.ts): the files a
 * reader takes, or a FileError naming what is there instead.
 */
function oneSessionIn(dir: string): string[] {
  const { sessions } = discoverSessions(walkFolder(dir).listing);
  if (sessions.length === 1) return sessions[0]!.files.filter((file) => READ_ROLES.has(file.role)).map((file) => join(dir, file.path));
  if (sessions.length === 0) throw new FileError(dir, 0, "is a directory with no session file in it (name a session file)");
  const named = sessions
    .slice(0, 3)
    .map((unit) => unit.path)
    .join(", ");
  throw new FileError(dir, 0, `is a directory of ${sessions.length} sessions (${named}${sessions.length > 3 ? ", …" : ""}): name one, or run \`audit ${dir}\` for all of them`);
}

export function readSessionFolder(dir: string, options: { format?: FormatName; strict: boolean }): SessionFile {
  let paths = sessionFilesIn(dir);
  // A task folder or a Claude Code session folder is one session of several files; any other folder opens
  // when it holds exactly one session.
  const multiFile = paths.some((p) => TASK_FILES.has(basename(p)) || /^agent-.+\.jsonl$/.test(basename(p)));
  if (!multiFile) paths = oneSessionIn(dir);
  const hash = createHash("sha256");
  let bytes = 0;
  const files: NamedFile[] = paths.map((path) => {
    const content = readFileSync(path);
    hash.update(content);
    bytes += content.length;
    return { name: relative(dir, path) || basename(path), bytes: content };
  });
  try {
    // A folder is read whole, file by file: nothing streams.
    return { file: dir, bytes, sha256: hash.digest("hex"), session: loadSessionFiles(files, options), streamed: false, outlined: false };
  } catch (error) {
    if (error instanceof SessionError) throw new FileError(dir, error.line, error.reason);
    throw error;
  }
}
