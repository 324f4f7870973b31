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

export function alignPanes(original: readonly Message[], active: readonly Message[], originalIndexById?: ReadonlyMap<string, number>): Alignment {
  // By id, or as the verbatim copy a compaction wrote under a new id (Codex's replacement history).
  const activeToOriginal = matchMessages(original, active, { earlierIndexById: originalIndexById });
  const originalToActive = new Int32Array(original.length).fill(-1);
  const differs = new Uint8Array(active.length);
  active.forEach((message, i) => {
    const source = activeToOriginal[i]!;
    if (source < 0) return;
    if (originalToActive[source] === -1) originalToActive[source] = i;
    const sourceMessage = original[source]!;
    // Text that moved out behind a marker is an omission, not a rewrite; prose moved out by a
    // cap, a capped or stubbed tool output, a truncation are rewrites worth a diff.
    const onlyOmitted = message.role === "toolResult" || message.role === "bash" ? message.blocks.some((b) => b.type === "omitted") : false;
    if (!onlyOmitted && sourceMessage !== message && textDiffers(sourceMessage, message)) differs[i] = 1;
  });
  return { activeToOriginal, originalToActive, differs };
}
