/** "Open folder…": the File System Access directory picker where the browser has one, else the folder input. */
import { useRef, type ChangeEvent } from "react";
import { openLibrary, type PickedFile } from "../../store/library.ts";
import { loadSource } from "../../store/store.ts";
import { readListing } from "../../store/read-listing.ts";
import { oneSessionOf, pickedFromDirectoryPicker, pickedFromDrop, pickedFromInput } from "./pick-files.ts";

export function FolderButton() {
  const input = useRef<HTMLInputElement>(null);
  // The library lists the picked files at once and reads their sizes itself (its progress line says so).
  const open = (files: PickedFile[], folder?: string) => void openLibrary(files, folder);
  const onInput = (event: ChangeEvent<HTMLInputElement>) => {
    const files = pickedFromInput(event.target.files);
    if (files.length) open(files);
    event.target.value = "";
  };
  const onClick = async () => {
    const picked = await pickedFromDirectoryPicker();
    if (picked === "unsupported") input.current?.click();
    else if (picked && picked.files.length) open(picked.files, picked.folder);
  };
  return (
    <>
      <button type="button" onClick={() => void onClick()} title="Open a folder of sessions (e.g. ~/.claude/projects) and audit every compaction in it">
        Open folder…
      </button>
      <input
        ref={input}
        data-testid="folder-input"
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        // React does not know webkitdirectory; the attribute is what matters.
        {...({ webkitdirectory: "", directory: "" } as Record<string, string>)}
        multiple
        onChange={onInput}
      />
    </>
  );
}

/**
 * A drop onto the app: one file opens as before; several files that are one
 * session (a Cline task's files, a Claude session with its subagents) open in
 * the inspector together; a folder or several sessions become a library.
 */
export async function openDropped(transfer: DataTransfer): Promise<void> {
  // Asked for during the drop event (the browser answers only then): a file dropped alone can be followed.
  const handles = dropHandles(transfer);
  const { files, folder } = await pickedFromDrop(transfer);
  const handle = files.length === 1 && !folder && handles.length === 1 ? await handles[0]!.catch(() => null) : null;
  await openPickedFiles(files, folder, handle?.kind === "file" ? (handle as FileSystemFileHandle) : undefined);
}

/**
 * Files dropped or chosen together: one opens as before (followable through its handle); several that
 * are one session (a Cline task's files, a Claude session with its subagents, a database with its
 * -wal) open in the inspector together; a folder or several sessions become a library.
 */
export async function openPickedFiles(files: PickedFile[], folder?: string | null, handle?: FileSystemFileHandle): Promise<void> {
  if (files.length === 0) return;
  await readListing(files);
  if (files.length === 1 && !folder) {
    void loadSource({ kind: "file", file: files[0]!.file, ...(handle ? { handle } : {}) });
    return;
  }
  const one = oneSessionOf(files);
  if (one && one.length > 1) {
    const opening = one[0]!;
    void loadSource({ kind: "files", name: opening.path.slice(opening.path.lastIndexOf("/") + 1), files: one.map(({ path, file }) => ({ name: path, file })) });
    return;
  }
  if (one && one.length === 1) {
    void loadSource({ kind: "file", file: one[0]!.file });
    return;
  }
  void openLibrary(files, folder ?? undefined);
}

/** Chromium's File System Access handles of a drop's files (none elsewhere): what Follow reads the file through. */
function dropHandles(transfer: DataTransfer): Promise<FileSystemHandle | null>[] {
  return [...transfer.items]
    .filter((item) => item.kind === "file")
    .map((item) => {
      const withHandle = item as DataTransferItem & { getAsFileSystemHandle?: () => Promise<FileSystemHandle | null> };
      return withHandle.getAsFileSystemHandle ? withHandle.getAsFileSystemHandle() : Promise.resolve(null);
    });
}
