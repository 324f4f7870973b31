/**
 * A followed file's pane models, one look after another. Each look's branch
 * (and its transparent view) is the last one's messages, the same objects,
 * with the new ones after them, and at most a short tail made again (Claude
 * Code's last response, merged with the lines that continue it). Indexing a
 * 100 MB session's rows again on every look is most of what a look costs, so
 * the next model goes on from the last one's maps: the changed tail's rows
 * are taken out, the new rows put in. The last model gives up its maps (its
 * view is on screen until the page asks for the next one, and its lookups
 * stay within its own rows: projection.ts, rowIn).
 */
import type { Message } from "../../core/model.ts";
import { resultCallId } from "../../core/tool-info.ts";
import { buildPaneModel, indexRows, type PaneModel } from "./projection.ts";

/** Past this many rows made again, the model is made whole (a rewrite, not a growth). */
const MAX_TAIL_REINDEXED = 256;

export function grownPaneModel(previous: PaneModel | undefined, messages: readonly Message[]): PaneModel {
  if (!previous || !previous.distinctIds || previous.messages.length > messages.length) return buildPaneModel(messages);
  const kept = sharedRows(previous.messages, messages);
  if (previous.messages.length - kept > MAX_TAIL_REINDEXED) return buildPaneModel(messages);
  const model: PaneModel = { ...previous, messages, shapes: undefined, grownFrom: { kept, shapes: previous.shapes } };
  // Its maps are the new model's now: a look that is cancelled after this must not grow from it again.
  previous.distinctIds = false;
  for (let index = kept; index < previous.messages.length; index++) forgetRow(model, previous.messages[index]!, index);
  indexRows(model, kept);
  return model;
}

/** How many leading rows are the same message objects in both lists. */
function sharedRows(before: readonly Message[], after: readonly Message[]): number {
  const limit = Math.min(before.length, after.length);
  let index = 0;
  while (index < limit && before[index] === after[index]) index++;
  return index;
}

/** Takes a row out of the maps that name it (ids are distinct, so nothing else is named by them). */
function forgetRow(model: PaneModel, message: Message, index: number): void {
  if (model.indexById.get(message.id) === index) model.indexById.delete(message.id);
  for (const block of message.blocks) {
    if (block.type !== "toolCall" || model.callRow.get(block.id) !== index) continue;
    model.callRow.delete(block.id);
    model.calls.delete(block.id);
  }
  const callId = message.role === "toolResult" ? resultCallId(message) : "";
  if (callId && model.resultRow.get(callId) === index) model.resultRow.delete(callId);
}
