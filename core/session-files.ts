/**
 * A session that is several files: a Cline / Roo Code / Kilo Code task folder
 * (api_conversation_history.json, with ui_messages.json and task_metadata.json
 * when present). The app's folder drop and the CLI's folder argument hand the
 * files over by name; a single file goes to loadSession as before.
 */
import { decodeSessionBytes } from "./decode.ts";
import { readCline } from "./formats/cline.ts";
import type { Session } from "./model.ts";
import { SessionError } from "./model.ts";
import { loadSession, sessionFromReader, type LoadOptions } from "./session.ts";

export interface NamedFile {
  /** The file's name or its path inside the dropped folder (either separator). */
  name: string;
  bytes: Uint8Array;
}

export const CLINE_HISTORY = "api_conversation_history.json";
const CLINE_UI = "ui_messages.json";
const CLINE_METADATA = "task_metadata.json";

export function baseName(name: string): string {
  return name.slice(Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1);
}

/** Whether these files are a task folder (or part of one) that loadSessionFiles reads as one session. */
export function isTaskFolder(files: readonly NamedFile[]): boolean {
  return files.some((file) => baseName(file.name) === CLINE_HISTORY);
}

export function loadSessionFiles(files: readonly NamedFile[], options: LoadOptions = {}): Session {
  if (files.length === 0) throw new SessionError(0, "no files given");
  if (isTaskFolder(files)) return loadTaskFolder(files, options.strict ?? false);
  if (files.length === 1) return loadSession(files[0]!.bytes, options);
  const names = files.map((file) => baseName(file.name)).join(", ");
  throw new SessionError(0, `${files.length} files (${names}) are not one session: a Cline/Roo/Kilo task folder needs ${CLINE_HISTORY}; give other sessions one file at a time`);
}

function loadTaskFolder(files: readonly NamedFile[], strict: boolean): Session {
  const find = (name: string) => {
    const found = files.filter((file) => baseName(file.name) === name);
    if (found.length > 1) throw new SessionError(0, `${found.length} files named ${name}: give one task folder at a time`);
    return found[0];
  };
  const parse = (file: NamedFile | undefined) => {
    if (!file) return undefined;
    try {
      return JSON.parse(decodeSessionBytes(file.bytes).replace(/^\uFEFF/, "")) as unknown;
    } catch (error) {
      const reason = error instanceof SessionError ? error.reason : error instanceof Error ? error.message : String(error);
      throw new SessionError(error instanceof SessionError ? error.line : 0, `${baseName(file.name)}: ${reason.slice(0, 200)}`);
    }
  };
  const history = parse(find(CLINE_HISTORY));
  return sessionFromReader(readCline({ history, ui: parse(find(CLINE_UI)), metadata: parse(find(CLINE_METADATA)) }, strict), strict);
}
