/**
 * Which row of one pane holds the same source message as a row of the other,
 * and which active rows say something other than their source. Pure: the
 * panes are lists of messages.
 */
import type { Message } from "../../core/model.ts";
import { matchMessages } from "../../core/same-message.ts";
import { textDiffers } from "./projection.ts";

export interface Alignment {
  /** Active row → original row of the same message, -1 when none (a summary, a staples block). */
  activeToOriginal: Int32Array;
  /** Original row → the first active row of the same message, -1 when it is not in the active context. */
  originalToActive: Int32Array;
  /** 1 where an active row's text differs from its source's (a rewrite worth a diff). */
  differs: Uint8Array;
}

/**
 * The alignment a followed file's last look made, and how many leading rows of each pane this look
 * shares with it (the same message objects): those rows' matches and rewrites are taken from it.
 */
export interface AlignmentBefore {
  alignment: Pick<Alignment, "activeToOriginal" | "differs">;
  originalRows: number;
  activeRows: number;
  /** No id names two rows of the original pane now (PaneModel.distinctIds). */
  originalIdsDistinct: boolean;
}

export function alignPanes(original: readonly Message[], active: readonly Message[], originalIndexById?: ReadonlyMap<string, number>, before?: AlignmentBefore): Alignment {
  const known = before && originalIndexById ? knownRows(original, active, before) : 0;
  // By id, or as the verbatim copy a compaction wrote under a new id (Codex's replacement history).
  const activeToOriginal = matchMessages(original, active, {
    earlierIndexById: originalIndexById,
    knownByIdentity: known > 0 ? { matches: before!.alignment.activeToOriginal, rows: known } : undefined,
  });
  const originalToActive = new Int32Array(original.length).fill(-1);
  const differs = new Uint8Array(active.length);
  if (known > 0) differs.set(before!.alignment.differs.subarray(0, known));
  for (let i = 0; i < active.length; i++) {
    const source = activeToOriginal[i]!;
    if (source < 0) continue;
    if (originalToActive[source] === -1) originalToActive[source] = i;
    if (i < known) continue;
    const message = active[i]!;
    const sourceMessage = original[source]!;
    // Text that moved out behind a marker is an omission, not a rewrite; prose moved out by a
    // cap, a capped or stubbed tool output, a truncation are rewrites worth a diff.
    const onlyOmitted = message.role === "toolResult" || message.role === "bash" ? message.blocks.some((b) => b.type === "omitted") : false;
    if (!onlyOmitted && sourceMessage !== message && textDiffers(sourceMessage, message)) differs[i] = 1;
  }
  return { activeToOriginal, originalToActive, differs };
}

/**
 * How many leading active rows keep the last look's match: all of the shared rows when each was
 * matched by its id to a shared original row, and no id names two original rows (a fresh match
 * would then give each the same row); none otherwise, and everything is matched again. A row
 * matched as a copy, or to nothing, could match otherwise now (new rows may take its copy first).
 */
export function knownRows(original: readonly Message[], active: readonly Message[], before: AlignmentBefore): number {
  const { activeToOriginal, differs } = before.alignment;
  const rows = Math.min(before.activeRows, active.length, activeToOriginal.length, differs.length);
  if (!before.originalIdsDistinct) return 0;
  for (let i = 0; i < rows; i++) {
    const source = activeToOriginal[i]!;
    if (source < 0 || source >= before.originalRows || source >= original.length || original[source]!.id !== active[i]!.id) return 0;
  }
  return rows;
}
