/**
 * Files chosen as a folder or dropped: each with its path inside the chosen
 * folder. Names, sizes and times only: nothing here reads a file's content.
 */
import { discoverSessions, READ_ROLES } from "../../../core/library/discover.ts";
import type { PickedFile } from "../../store/library.ts";

/** From `<input type=file webkitdirectory>`: webkitRelativePath starts with the folder's name. */
export function pickedFromInput(list: FileList | null): PickedFile[] {
  return [...(list ?? [])].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}

async function walkEntry(entry: FileSystemEntry, out: PickedFile[]): Promise<void> {
  const path = entry.fullPath.replace(/^\/+/, "");
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ path, file });
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries returns a folder's entries in batches until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    for (const child of batch) await walkEntry(child, out);
  }
}

/** A drop: a folder (walked), or several files; `folder` says whether a folder was among them. */
export async function pickedFromDrop(transfer: DataTransfer): Promise<{ files: PickedFile[]; folder: string | null }> {
  const entries = [...transfer.items].map((item) => (item.kind === "file" ? item.webkitGetAsEntry() : null)).filter((entry): entry is FileSystemEntry => entry !== null);
  if (entries.length === 0) return { files: [...transfer.files].map((file) => ({ path: file.name, file })), folder: null };
  const files: PickedFile[] = [];
  for (const entry of entries) await walkEntry(entry, files);
  const folder = entries.find((entry) => entry.isDirectory)?.name ?? null;
  return { files, folder };
}

interface DirectoryHandle {
  kind: "directory";
  name: string;
  values(): AsyncIterable<DirectoryHandle | { kind: "file"; name: string; getFile(): Promise<File> }>;
}

/** The File System Access directory picker, where the browser has one; null when it does not (or the user cancelled). */
export async function pickedFromDirectoryPicker(): Promise<{ files: PickedFile[]; folder: string } | null | "unsupported"> {
  const picker = (window as unknown as { showDirectoryPicker?: () => Promise<DirectoryHandle> }).showDirectoryPicker;
  if (!picker) return "unsupported";
  let root: DirectoryHandle;
  try {
    root = await picker();
  } catch {
    return null;
  }
  const files: PickedFile[] = [];
  const walk = async (dir: DirectoryHandle, prefix: string) => {
    for await (const handle of dir.values()) {
      if (handle.kind === "directory") await walk(handle, `${prefix}${handle.name}/`);
      else files.push({ path: `${prefix}${handle.name}`, file: await handle.getFile() });
    }
  };
  await walk(root, `${root.name}/`);
  return { files, folder: root.name };
}

/**
 * Several files that are one session (a Cline task's JSON files, a Claude Code
 * session with its subagents) open in the inspector; anything else with more
 * than one session is a library.
 */
export function oneSessionOf(files: readonly PickedFile[]): PickedFile[] | null {
  // A SQLite database dropped with its write-ahead log (OpenCode's opencode.db and opencode.db-wal; its -shm is only a lock).
  const withLog = files.find((entry) => files.some((other) => other.path === `${entry.path}-wal`));
  if (withLog && files.every((entry) => [withLog.path, `${withLog.path}-wal`, `${withLog.path}-shm`].includes(entry.path))) {
    return [withLog, files.find((entry) => entry.path === `${withLog.path}-wal`)!];
  }
  // Dropped side by side (not in their folders): one Claude Code session file and its agent-*.jsonl / .meta.json.
  const flat = files.every((entry) => !entry.path.includes("/"));
  const agents = files.filter((entry) => /^agent-.+\.(jsonl|meta\.json)$/.test(entry.path));
  const mains = files.filter((entry) => !agents.includes(entry) && entry.path.endsWith(".jsonl"));
  if (flat && agents.length > 0 && mains.length === 1 && agents.length + 1 === files.length) return [...mains, ...agents];
  const discovery = discoverSessions(files.map(({ path, file }) => ({ path, bytes: file.size, mtimeMs: file.lastModified })));
  if (discovery.sessions.length !== 1) return null;
  const unit = discovery.sessions[0]!;
  const byPath = new Map(files.map((entry) => [entry.path, entry]));
  return unit.files.filter((file) => READ_ROLES.has(file.role)).map((file) => byPath.get(file.path)!);
}
