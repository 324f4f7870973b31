/**
 * A session that is several files: a Cline / Roo Code / Kilo Code task folder
 * (api_conversation_history.json, with ui_messages.json and task_metadata.json
 * when present), or a Claude Code session with its subagent transcripts
 * (`agent-<id>.jsonl`, `agent-<id>.meta.json`). The app's folder drop and the
 * CLI's folder argument hand the files over by name; a single file goes to
 * loadSession as before. Saved tool outputs handed over with their session
 * (Claude Code's `tool-results/`, Gemini CLI's `tool-outputs/`) are the
 * targets of previews the transcript already marks, not transcript: they are
 * left out before the session is read.
 */
import { decodeSessionBytes } from "./decode.ts";
import { looksLikeClaude } from "./formats/claude.ts";
import { readClaudeWithSubagents, subagentIdOf, type SubagentTranscript } from "./formats/claude-subagents.ts";
import { readCline } from "./formats/cline.ts";
import { parseJsonLines } from "./jsonl.ts";
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

/** A saved tool output: a `.txt` in a `tool-results/` (Claude Code) or `tool-outputs/` / older `tool_output/` (Gemini CLI) folder. */
export function isToolOutputSidecar(name: string): boolean {
  return /(?:^|[/\\])(?:tool-results|tool-outputs|tool_output)[/\\](?:[^/\\]+[/\\])?[^/\\]+\.txt$/.test(name);
}

export function loadSessionFiles(given: readonly NamedFile[], options: LoadOptions = {}): Session {
  if (given.length === 0) throw new SessionError(0, "no files given");
  const files = given.filter((file) => !isToolOutputSidecar(file.name));
  if (files.length === 0) throw new SessionError(0, `${given.length} saved tool output file(s) and no session file`);
  if (isTaskFolder(files)) return loadTaskFolder(files, options.strict ?? false);
  // A task folder without its history: the UI log is read alone (core/formats/cline-ui.ts), task_metadata.json left aside.
  const uiLogs = files.filter((file) => baseName(file.name) === CLINE_UI);
  if (uiLogs.length === 1 && files.every((file) => baseName(file.name) === CLINE_UI || baseName(file.name) === CLINE_METADATA)) return loadSession(uiLogs[0]!.bytes, options);
  if (files.length === 1) return loadSession(files[0]!.bytes, options);
  if (files.some((file) => subagentIdOf(baseName(file.name)) !== null)) return loadWithSubagents(files, options.strict ?? false);
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

function loadWithSubagents(files: readonly NamedFile[], strict: boolean): Session {
  const sessions = files.filter((file) => baseName(file.name).endsWith(".jsonl") && subagentIdOf(baseName(file.name)) === null);
  if (sessions.length !== 1) {
    throw new SessionError(
      0,
      `subagent transcripts need exactly one Claude Code session file beside them (found ${sessions.length}: ${sessions.map((f) => baseName(f.name)).join(", ") || "none"})`,
    );
  }
  const records = (file: NamedFile) => {
    try {
      return parseJsonLines(decodeSessionBytes(file.bytes).replace(/^\uFEFF/, ""), strict);
    } catch (error) {
      if (error instanceof SessionError) throw new SessionError(error.line, `${baseName(file.name)}: ${error.reason}`);
      throw error;
    }
  };
  const main = records(sessions[0]!);
  if (!looksLikeClaude(main.records))
    throw new SessionError(0, `${baseName(sessions[0]!.name)} is not a Claude Code session: subagent transcripts join only a Claude Code session`);
  const metaFiles = new Map(files.map((file) => [baseName(file.name), file]));
  const subagents: SubagentTranscript[] = [];
  for (const file of files) {
    const agentId = subagentIdOf(baseName(file.name));
    if (agentId === null) continue;
    const metaFile = metaFiles.get(`agent-${agentId}.meta.json`);
    let meta: unknown;
    if (metaFile) {
      try {
        meta = JSON.parse(decodeSessionBytes(metaFile.bytes));
      } catch {
        meta = undefined; // a broken meta file loses only the agent's label
      }
    }
    subagents.push({ agentId, fileName: baseName(file.name), records: records(file).records, meta });
  }
  const output = readClaudeWithSubagents(main.records, subagents, strict);
  output.warnings.unshift(...main.warnings);
  return sessionFromReader(output, strict);
}
