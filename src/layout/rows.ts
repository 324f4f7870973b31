/**
 * Row geometry shared by the worker (which computes every row's base height
 * once, from the projection) and the panes (which add what the user opened:
 * recovered payloads, expanded thinking). Every element of a row has a fixed
 * height in CSS, so these numbers are the truth, not an estimate.
 */
import type { RowProjection } from "../projections.ts";

export const LINE_HEIGHT = 18;
/** Space under a text preview (a margin: padding would show the clipped next line). */
export const TEXT_GAP = 6;
export const ROW_PADDING = 8;
export const HEADER_HEIGHT = 22;
export const SINGLE_LINE_BLOCK = 24;
export const MARKER_HEIGHT = 48;
export const MORE_BLOCKS_LINE = 20;
export const RECOVERED_BOX = 200;
export const EXPANDED_THINKING_BOX = 200;
/** A text, thinking or tool-call block opened in place: one box height for all. */
export const EXPANDED_BOX = EXPANDED_THINKING_BOX;
/** The audit's summary, opened on arrival: what the auditor came to read gets more room than other blocks. */
export const SUMMARY_BOX = 440;
/** Blocks shown in a row; the rest are one "+N more" line (all are in the detail view). */
export const MAX_ROW_BLOCKS = 8;
export const MAX_PREVIEW_LINES = 3;
/** A compaction divider drawn above a row of the original pane (.compaction-divider in CSS). */
export const DIVIDER_HEIGHT = 30;

export function blockHeight(block: Pick<RowProjection["blocks"][number], "type" | "lines">): number {
  switch (block.type) {
    case "text":
      return block.lines * LINE_HEIGHT + TEXT_GAP;
    case "omitted":
      return MARKER_HEIGHT;
    default:
      return SINGLE_LINE_BLOCK;
  }
}

export function baseRowHeight(row: RowProjection): number {
  let height = ROW_PADDING + HEADER_HEIGHT;
  for (const block of row.blocks) height += blockHeight(block);
  if (row.hiddenBlocks > 0) height += MORE_BLOCKS_LINE;
  if (row.dividers) height += row.dividers.length * DIVIDER_HEIGHT;
  return height;
}
export const COMPACT_ROW = 31;
