/**
 * The one place the audit measures a context. For now: characters of the
 * messages' JSON (the same measure as the checkpoint's originalChars and
 * activeChars). When the model's view and its token count land, swap the body
 * and the unit here; every audit figure follows.
 */
import { messagesJsonLength } from "../json-length.ts";
import type { Message } from "../model.ts";

export const CONTEXT_SIZE_UNIT = "chars";

export function contextSize(messages: readonly Message[]): number {
  return messagesJsonLength(messages, new Map());
}
