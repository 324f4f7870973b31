/**
 * Where a session worked, when its file does not say. VS Code's Copilot agent records no working
 * directory (its `events.jsonl` names the session, not the workspace), and its tools take absolute
 * paths: the modified files are then relative to the deepest folder holding every file the session's
 * tools read or wrote (LABELS.md: "relative to the session's working directory"), the workspace as
 * its own listing would show it.
 */
import type { Message } from "../model.ts";
import { modifiedPathsOf, readPathOf } from "./tool-calls.ts";

/**
 * Outside the work (LABELS.md: `~/.pi/…`, `~/.claude/plans/…`, `/tmp/…`): the home folder's own files
 * and the system's. A path elsewhere that stays absolute (a worktree of the same repository) is kept.
 */
export const OUTSIDE_ANY_WORK = /^(~|\$|\/(tmp|var|usr|etc|opt|private|proc|sys|dev|boot)\/|\/(home|Users)\/[^/]+\/\.|[A-Za-z]:\/Users\/[^/]+\/\.)/;

const ABSOLUTE = /^(\/|[A-Za-z]:\/)/;

/**
 * The deepest folder holding every absolute path the branch's tools read or wrote (the home folder's
 * own files and the system's left out), or undefined when they name none, or share no folder below
 * the drive, `/home/<user>` or `/Users/<user>`: too shallow to be a project.
 */
export function inferredWorkspace(branch: readonly Message[]): string | undefined {
  let shared: string[] | undefined;
  let windows = false;
  const absolute: string[] = [];
  const relative = new Set<string>();
  for (const message of branch) {
    for (const block of message.blocks) {
      if (block.type !== "toolCall") continue;
      const readPath = readPathOf(block);
      for (const raw of readPath ? [...modifiedPathsOf(block), readPath] : modifiedPathsOf(block)) {
        const path = raw.replace(/\\/g, "/").trim().replace(/^\.\//, "");
        // A folder viewed (Copilot CLI's `view` of the project itself) is a folder, not a file in its parent.
        const viewedFolder = raw === readPath && !/\.[^/]*$/.test(path.replace(/\/+$/, "").replace(/^.*\//, ""));
        if (!ABSOLUTE.test(path)) {
          if (path.includes("/") && !path.startsWith("../") && !path.startsWith("~")) relative.add(path);
          continue;
        }
        if (OUTSIDE_ANY_WORK.test(path)) continue;
        absolute.push(path);
        // The folder holding the file: its path without the last segment.
        const folders = viewedFolder ? path.replace(/\/+$/, "").split("/") : path.split("/").slice(0, -1);
        windows ||= /^[A-Za-z]:$/.test(folders[0] ?? "");
        if (shared === undefined) {
          shared = folders;
          continue;
        }
        let same = 0;
        const equal = (a: string, b: string) => (windows ? a.toLowerCase() === b.toLowerCase() : a === b);
        while (same < shared.length && same < folders.length && equal(shared[same]!, folders[same]!)) same++;
        shared = shared.slice(0, same);
      }
    }
  }
  if (shared === undefined) return undefined;
  // The same file named both ways (`src/main.ts` read, `/w/app/src/main.ts` written) says where the tools stood.
  const rooted = rootsOfNamedBothWays(absolute, relative, windows);
  if (rooted) return rooted;
  const folder = shared.join("/");
  // "/", "D:", "/home", "/home/ana", "C:/Users/ana": no project is that wide.
  if (shared.length < 2 || /^(\/(home|Users)(\/[^/]+)?|[A-Za-z]:(\/Users(\/[^/]+)?)?)$/.test(folder)) return undefined;
  return folder;
}

/** The folder most files named both absolutely and relatively share as the base of their relative name. */
function rootsOfNamedBothWays(absolute: readonly string[], relative: ReadonlySet<string>, windows: boolean): string | undefined {
  const counts = new Map<string, number>();
  const fold = (path: string) => (windows ? path.toLowerCase() : path);
  const relatives = [...relative].map(fold);
  for (const path of new Set(absolute)) {
    for (const name of relatives) {
      if (!fold(path).endsWith(`/${name}`)) continue;
      const root = path.slice(0, path.length - name.length - 1);
      counts.set(root, (counts.get(root) ?? 0) + 1);
    }
  }
  let best: string | undefined;
  for (const [root, count] of counts) if (best === undefined || count > counts.get(best)!) best = root;
  return best;
}
