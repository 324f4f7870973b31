/**
 * What the screen asks about the view it shows: rows, a message in full, a
 * payload recovered and verified, a word diff, a search, where a message is.
 * Each needs the view only.
 */
import { diffWords } from "diff";
import { RecoveryError, recover } from "../../../core/archive.ts";
import type { Message } from "../../../core/model.ts";
import { searchText } from "../../../core/message-text.ts";
import { textOf } from "../../../core/model.ts";
import { displayBlocks, displayPayload, rowIn } from "../projection.ts";
import type { DiffResult, MessageDetail, Pane, RecoveryResult, ResponseMap, RowProjection } from "../protocol.ts";
import type { View } from "../screen.ts";
import { rowsWithAudit } from "./audit.ts";

const SEARCH_CAP = 10_000;
const DIFF_GATE = 20_000;

export function rowsOf(view: View, pane: Pane, start: number, end: number): RowProjection[] {
  return rowsWithAudit(view, pane, start, end);
}

export function detailOf(view: View, pane: Pane, index: number, full: boolean): MessageDetail {
  const message = (pane === "original" ? view.original : view.active).messages[index];
  if (!message) throw new Error(`no row ${index} in the ${pane} pane`);
  let meta: string;
  try {
    meta = JSON.stringify(message.meta, null, 2);
  } catch {
    meta = "(metadata cannot be shown)";
  }
  return { pane, index, id: message.id, role: message.role, meta, blocks: displayBlocks(message.blocks, full) };
}

export async function recoverFrom(view: View, recoveryId: string, full: boolean): Promise<RecoveryResult> {
  const entry = view.archive.get(recoveryId);
  if (!entry) throw new Error(`no archived payload with id ${recoveryId}`);
  try {
    const recovered = await recover(view.archive, recoveryId);
    return {
      recoveryId,
      verified: true,
      expected: entry.sha256,
      found: recovered.sha256,
      bytes: recovered.bytes,
      kind: entry.kind,
      blocks: displayPayload(recovered.payload, full),
    };
  } catch (error) {
    if (!(error instanceof RecoveryError)) throw error;
    // The payload is not shown: it is not what was archived.
    return { recoveryId, verified: false, expected: error.expected, found: error.found, bytes: entry.bytes, kind: entry.kind, blocks: [], error: error.message };
  }
}

export function searchView(view: View, query: string): ResponseMap["search"] {
  const needle = query.trim().toLowerCase();
  if (needle === "") return { original: [], active: [], total: 0, capped: false };
  let total = 0;
  const find = (messages: readonly Message[]): number[] => {
    const hits: number[] = [];
    for (let i = 0; i < messages.length && total < SEARCH_CAP; i++) {
      if (searchText(messages[i]!).toLowerCase().includes(needle)) {
        hits.push(i);
        total++;
      }
    }
    return hits;
  };
  const original = find(view.original.messages);
  const active = find(view.active.messages);
  return { original, active, total, capped: total >= SEARCH_CAP };
}

export function diffRow(view: View, index: number, full: boolean): DiffResult {
  const activeMessage = view.active.messages[index];
  if (!activeMessage) throw new Error(`no row ${index} in the active pane`);
  const sourceRow = view.activeToOriginal[index]!;
  const source = sourceRow >= 0 ? textOf(view.original.messages[sourceRow]!) : "";
  const active = textOf(activeMessage);
  const gated = !full && (source.length > DIFF_GATE || active.length > DIFF_GATE);
  const parts = gated ? [] : diffWords(source, active).map(({ value, added, removed }) => ({ value, added, removed }));
  return { index, parts, gated, sourceChars: source.length, activeChars: active.length };
}

export function locateMessage(view: View, messageId: string): ResponseMap["locate"] {
  // Through rowIn, as every lookup of a pane's maps: a followed file's next look may share them (pane-growth.ts).
  return { original: rowIn(view.original, view.original.indexById, messageId), active: rowIn(view.active, view.active.indexById, messageId) };
}
