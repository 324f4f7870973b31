/**
 * The model-view count of a compaction's context set beside the figure the
 * file records for the same moment. The file's figure is what the provider
 * billed, system prompt and tool definitions included, so the transcript's
 * count should sit at or under it; where it sits above, the transcript holds
 * more than the agent sent (outputs pruned or truncated on the way, which
 * the file does not record) or the model's tokenizer is not o200k. Said on
 * screen in those words rather than left as a contradiction.
 */
import type { CompactionKind } from "../model.ts";

export interface ViewAgainstFile {
  /** The file's own figure for this side, when it states one that is the context's size. */
  file: number | null;
  view: number;
  /** view ÷ file − 1, when the view exceeds the file's figure. */
  excess: number | null;
  /** One sentence for the screen, or null where the two agree (view ≤ file) or the file states nothing. */
  note: string | null;
}

/** Kinds whose recorded "before" figure is not the context's size (a microcompact's own count). */
const NOT_CONTEXT_SIZE = new Set<CompactionKind | string>(["claude-microcompact"]);

export function viewAgainstFile(kind: CompactionKind | string, view: number, file: number | null): ViewAgainstFile {
  const stated = file !== null && file > 0 && !NOT_CONTEXT_SIZE.has(kind) ? file : null;
  if (stated === null || view <= stated) return { file: stated, view, excess: null, note: null };
  const excess = view / stated - 1;
  return {
    file: stated,
    view,
    excess,
    note: `Counted here from the transcript: ${Math.round(excess * 100)}% above the file's own ${stated.toLocaleString("en-US")}. The agent sent less than its transcript holds (outputs pruned or truncated on the way, which the file does not record), or its model's tokenizer is not o200k; the file's figure is what the model read.`,
  };
}
