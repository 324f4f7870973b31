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
  for (const message of branch) {
    for (const block of message.blocks) {
      if (block.type !== "toolCall") continue;
      const readPath = readPathOf(block);
      for (const raw of readPath ? [...modifiedPathsOf(block), readPath] : modifiedPathsOf(block)) {
        const path = raw.replace(/\\/g, "/").trim();
        if (!ABSOLUTE.test(path) || OUTSIDE_ANY_WORK.test(path)) continue;
        // The folder holding the file: its path without the last segment.
        const folders = path.split("/").slice(0, -1);
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
  const folder = shared.join("/");
  // "/", "D:", "/home", "/home/ana", "C:/Users/ana": no project is that wide.
  if (shared.length < 2 || /^(\/(home|Users)(\/[^/]+)?|[A-Za-z]:(\/Users(\/[^/]+)?)?)$/.test(folder)) return undefined;
  return folder;
}
