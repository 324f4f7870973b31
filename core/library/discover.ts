/**
 * Library discovery: a folder listing → the sessions in it, each with the
 * files that belong to it, and the files that are not sessions, each with a
 * reason. Pure: it reads only the listing (paths, sizes, times), never file
 * content, so the app (a dropped folder or a directory picker) and the CLI
 * (a walk of the disk) share it. Content decides later, at index time: a file
 * that looks like a session by its name and is refused by every reader is
 * reported as skipped then, with the reader's reason.
 */

/** One file of the listing. `path` is relative to the chosen folder, with "/" separators. */
export interface ListedFile {
  path: string;
  bytes: number;
  /** Modification time in ms since the epoch (the cache key's third part). */
  mtimeMs: number;
}

/** The agent a layout belongs to, as the file names say (content may still disagree). */
export type AgentHint = "claude" | "codex" | "pi" | "gemini" | "copilot" | "cline" | "opencode" | "aider" | "qwen" | "cursor" | "unknown";

export type FileRole = "session" | "subagent" | "subagent-meta" | "sidecar" | "task-part" | "database-log";

/**
 * The roles of the files a reader takes: sidecars (saved tool outputs) are targets of previews, not
 * transcript; a database's write-ahead log is laid over the database, not read as a file of its own.
 */
export const READ_ROLES: ReadonlySet<FileRole> = new Set<FileRole>(["session", "subagent", "subagent-meta", "task-part"]);

export interface SessionUnit {
  /** The path of the file the session opens from (the Cline task: its api_conversation_history.json). */
  path: string;
  agent: AgentHint;
  /** The project the agent filed it under (Claude's project folder, Pi's cwd folder, Gemini's project hash…), when the layout names one. */
  project: string | null;
  /** Every file of the session, the opening file first. */
  files: { path: string; role: FileRole; bytes: number; mtimeMs: number }[];
  /** Sum of the files' sizes. */
  bytes: number;
  /** The newest modification time of the files (a change to any file re-indexes the session). */
  mtimeMs: number;
}

export interface SkippedFile {
  path: string;
  reason: string;
}

export interface Discovery {
  sessions: SessionUnit[];
  skipped: SkippedFile[];
}

// Group 1: the folder holding the session (may be empty), group 2: the session id.
const CLAUDE_SUBAGENT = /^(?:(.*)\/)?([^/]+)\/subagents\/(agent-[^/]+)\.jsonl$/;
const CLAUDE_SUBAGENT_META = /^(?:(.*)\/)?([^/]+)\/subagents\/(agent-[^/]+)\.meta\.json$/;
const CLAUDE_TOOL_RESULT = /^(?:(.*)\/)?([^/]+)\/tool-results\/[^/]+$/;
// Gemini CLI's saved tool outputs: group 1 the project temp folder (may be empty), group 2 the full session id.
const GEMINI_TOOL_OUTPUT = /^(?:(.*)\/)?tool-outputs\/session-([^/]+)\/[^/]+$/;
// Older Gemini CLI releases wrote them per project, not per session: no file says which session they belong to.
const GEMINI_TOOL_OUTPUT_UNTIED = /(?:^|\/)(?:tool-outputs|tool_output)\/[^/]+\.txt$/;
const CLINE_PARTS = new Set(["api_conversation_history.json", "ui_messages.json", "task_metadata.json"]);
// Aider's chat history is Markdown under one name: `.aider.chat.history.md` (other .md files are no sessions).
// OpenCode's own store and Kilo CLI's (the same tables); a release channel's is opencode-<channel>.db.
const DATABASE_NAME = /^(?:opencode|kilo)(?:-[\w.]+)?\.db$/;
const SESSION_EXTENSIONS = /\.(jsonl|json|jsonl\.zst)$|(^|\/)\.aider\.chat\.history\.md$/;

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function dirName(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

/** The agent and project a session file's place says it belongs to. */
export function layoutOf(path: string): { agent: AgentHint; project: string | null } {
  const parts = path.split("/");
  const name = parts[parts.length - 1]!;
  const parent = parts[parts.length - 2] ?? null;
  const at = (folder: string): number => parts.lastIndexOf(folder);
  if (/^rollout-.*\.jsonl(\.zst)?$/.test(name)) return { agent: "codex", project: null };
  // Cursor: ~/.cursor/projects/<slug>/agent-transcripts/<id>/<id>.jsonl (subagents beside them).
  if (at("agent-transcripts") !== -1 && name.endsWith(".jsonl")) return { agent: "cursor", project: parts[at("agent-transcripts") - 1] ?? null };
  // Qwen Code keeps its chats under ~/.qwen, one folder of chats per project.
  if (at(".qwen") !== -1 && parent === "chats" && name.endsWith(".jsonl")) return { agent: "qwen", project: parts[parts.length - 3] ?? null };
  // Aider writes its history into the repository it works in: the folder is the project.
  if (name === ".aider.chat.history.md") return { agent: "aider", project: parent };
  if (name === "events.jsonl" && at("session-state") !== -1) return { agent: "copilot", project: null };
  if (at("session-state") === parts.length - 2 && name.endsWith(".jsonl")) return { agent: "copilot", project: null };
  if (/^session-.*\.jsonl?$/.test(name) && parent === "chats") return { agent: "gemini", project: parts[parts.length - 3] ?? null };
  if (at("projects") !== -1 && at(".claude") !== -1 && parts.length - at("projects") === 3) return { agent: "claude", project: parts[at("projects") + 1]! };
  if (at("sessions") !== -1 && parent?.startsWith("--")) return { agent: "pi", project: parent.replace(/^--|--$/g, "").replace(/-/g, "/") };
  if (parent && /^[0-9a-f-]{36}$/i.test(name.replace(/\.jsonl$/, "")) && name.endsWith(".jsonl")) return { agent: "claude", project: parent };
  return { agent: "unknown", project: parent };
}

/**
 * Groups a listing into sessions. Plain wins over `.zst` when both copies of a
 * Codex rollout exist (FORMATS.md); Claude Code subagents and tool-result
 * sidecars join the session whose id names their folder; Gemini CLI's saved
 * tool outputs join the chat whose file name ends in their session id's first
 * 8 characters; a Cline/Roo/Kilo task folder is one session opened from its
 * api_conversation_history.json.
 */
export function discoverSessions(listing: readonly ListedFile[]): Discovery {
  const sessions: SessionUnit[] = [];
  const skipped: SkippedFile[] = [];
  const byPath = new Map(listing.map((file) => [file.path, file]));
  const claimed = new Set<string>();
  const unitByKey = new Map<string, SessionUnit>();

  const addUnit = (opening: ListedFile, role: FileRole = "session"): SessionUnit => {
    const { agent, project } = layoutOf(opening.path);
    const unit: SessionUnit = {
      path: opening.path,
      agent,
      project,
      files: [{ path: opening.path, role, bytes: opening.bytes, mtimeMs: opening.mtimeMs }],
      bytes: opening.bytes,
      mtimeMs: opening.mtimeMs,
    };
    sessions.push(unit);
    claimed.add(opening.path);
    return unit;
  };
  const attach = (unit: SessionUnit, file: ListedFile, role: FileRole): void => {
    unit.files.push({ path: file.path, role, bytes: file.bytes, mtimeMs: file.mtimeMs });
    unit.bytes += file.bytes;
    unit.mtimeMs = Math.max(unit.mtimeMs, file.mtimeMs);
    claimed.add(file.path);
  };

  // Cline / Roo / Kilo task folders first: their parts are JSON files that would otherwise look like sessions.
  const taskFolders = new Map<string, ListedFile[]>();
  for (const file of listing) {
    if (CLINE_PARTS.has(baseName(file.path))) {
      const folder = dirName(file.path);
      taskFolders.set(folder, [...(taskFolders.get(folder) ?? []), file]);
    }
  }
  for (const [folder, parts] of taskFolders) {
    const history = parts.find((file) => baseName(file.path) === "api_conversation_history.json");
    if (!history) {
      // The UI log alone is still the conversation as shown (core/formats/cline-ui.ts says what it lacks).
      const uiLog = parts.find((file) => baseName(file.path) === "ui_messages.json");
      if (uiLog) {
        const unit = addUnit(uiLog);
        unit.agent = "cline";
        unit.project = baseName(folder) || null;
      }
      for (const part of parts) {
        claimed.add(part.path);
        if (part !== uiLog)
          skipped.push({
            path: part.path,
            reason: uiLog
              ? "task metadata of a task folder without api_conversation_history.json (its UI log is read alone)"
              : "part of a task folder without api_conversation_history.json or ui_messages.json",
          });
      }
      continue;
    }
    const unit = addUnit(history);
    unit.agent = "cline";
    unit.project = baseName(folder) || null;
    for (const part of parts) if (part !== history) attach(unit, part, "task-part");
  }

  // OpenCode databases: each a unit whose sessions are listed when it is indexed, with its -wal (its newest
  // writes) read with it; its -shm is SQLite's lock and index of the log, no data of its own.
  for (const file of listing) {
    if (!DATABASE_NAME.test(baseName(file.path))) continue;
    const unit = addUnit(file);
    unit.agent = "opencode";
    unit.project = null;
    const log = byPath.get(`${file.path}-wal`);
    if (log) attach(unit, log, "database-log");
    const shared = byPath.get(`${file.path}-shm`);
    if (shared) {
      skipped.push({ path: shared.path, reason: "SQLite's shared-memory index of the database beside it (no data of its own)" });
      claimed.add(shared.path);
    }
  }

  // Sessions: every candidate file that is not a sidecar of another.
  for (const file of listing) {
    if (claimed.has(file.path)) continue;
    if (CLAUDE_SUBAGENT.test(file.path) || CLAUDE_SUBAGENT_META.test(file.path) || CLAUDE_TOOL_RESULT.test(file.path)) continue;
    if (!SESSION_EXTENSIONS.test(file.path)) continue;
    if (file.path.endsWith(".jsonl.zst") && byPath.has(file.path.slice(0, -".zst".length))) {
      skipped.push({ path: file.path, reason: "the plain .jsonl copy of this rollout is read instead" });
      claimed.add(file.path);
      continue;
    }
    const unit = addUnit(file);
    // A Claude Code session's sidecars live in a folder named after it.
    const stem = file.path.replace(/\.jsonl$/, "");
    unitByKey.set(stem, unit);
    const gemini = geminiKeyOf(file.path);
    if (gemini) unitByKey.set(gemini, unit);
  }

  // Sidecars join their parent; orphans are skipped with the reason.
  for (const file of listing) {
    if (claimed.has(file.path)) continue;
    const subagent = CLAUDE_SUBAGENT.exec(file.path) ?? CLAUDE_SUBAGENT_META.exec(file.path);
    const toolResult = CLAUDE_TOOL_RESULT.exec(file.path);
    const match = subagent ?? toolResult;
    if (match) {
      const parent = unitByKey.get(match[1] ? `${match[1]}/${match[2]}` : match[2]!);
      const role: FileRole = toolResult ? "sidecar" : file.path.endsWith(".meta.json") ? "subagent-meta" : "subagent";
      if (parent) attach(parent, file, role);
      else skipped.push({ path: file.path, reason: `a Claude Code ${role} whose session ${match[2]}.jsonl is not in the folder` });
      claimed.add(file.path);
      continue;
    }
    const geminiOutput = GEMINI_TOOL_OUTPUT.exec(file.path);
    if (geminiOutput) {
      // The chat file names the session by its id's first 8 characters (session-<time>-<id8>.jsonl).
      const parent = unitByKey.get(geminiSidecarKey(geminiOutput[1] ?? "", geminiOutput[2]!.slice(0, 8)));
      if (parent) attach(parent, file, "sidecar");
      else skipped.push({ path: file.path, reason: `a Gemini CLI saved tool output whose chat (session ${geminiOutput[2]}) is not in the folder` });
      claimed.add(file.path);
      continue;
    }
    if (GEMINI_TOOL_OUTPUT_UNTIED.test(file.path)) {
      skipped.push({ path: file.path, reason: "a Gemini CLI saved tool output of an older release, not filed under one session" });
      continue;
    }
    skipped.push({ path: file.path, reason: reasonNotASession(file) });
  }

  sessions.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { sessions, skipped };
}

function geminiSidecarKey(projectFolder: string, shortId: string): string {
  return `gemini:${projectFolder}:${shortId}`;
}

/** A Gemini chat `<project>/chats/session-<time>-[<n>-]<id8>.json(l)` → the key its saved tool outputs look up. */
function geminiKeyOf(path: string): string | null {
  const match = /^(?:(.*)\/)?chats\/session-.*-([0-9a-zA-Z_]{8})\.jsonl?$/.exec(path);
  return match ? geminiSidecarKey(match[1] ?? "", match[2]!) : null;
}

function reasonNotASession(file: ListedFile): string {
  if (file.bytes === 0) return "empty file";
  const dot = baseName(file.path).lastIndexOf(".");
  const extension = dot > 0 ? baseName(file.path).slice(dot) : "";
  if (/\.db-wal$/.test(file.path)) return "a SQLite write-ahead log whose database is not in the folder";
  return extension ? `not a session file (${extension})` : "not a session file (no extension)";
}
