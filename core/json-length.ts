/**
 * JSON.stringify(...).length of messages without serializing big payloads a
 * second time. Compaction already serialized every archived payload to hash
 * it; the stats (originalChars, activeChars) reuse those lengths. The result
 * equals JSON.stringify exactly (property-tested in test/core/json-length.test.ts).
 */
import type { Message } from "./model.ts";

/** Known JSON lengths by object identity (payloads, blocks, block lists, messages): a Map, or a MeasuredOver. */
export interface JsonLengths {
  get(value: object): number | undefined;
  set(value: object, length: number): unknown;
}

/**
 * Lengths measured on top of an earlier table without adding to it: an
 * active view measured against its branch's lengths reads those and keeps
 * its own messages (copies a strategy made) to itself.
 */
export class MeasuredOver implements JsonLengths {
  private readonly own = new Map<object, number>();
  constructor(private readonly base: JsonLengths) {}
  get(value: object): number | undefined {
    return this.own.get(value) ?? this.base.get(value);
  }
  set(value: object, length: number): void {
    this.own.set(value, length);
  }
}

export function messagesJsonLength(messages: readonly Message[], known: JsonLengths): number {
  let length = 2 + Math.max(0, messages.length - 1);
  for (const message of messages) length += messageJsonLength(message, known);
  return length;
}

/** Known parts smaller than this are cheaper to serialize again with their message than to add up. */
const WORTH_REUSING = 4096;

export function messageJsonLength(message: Message, known: JsonLengths): number {
  const cached = known.get(message);
  if (cached !== undefined) return cached;
  let blocksLength = known.get(message.blocks);
  if (blocksLength === undefined) {
    let reusable = 0;
    for (const block of message.blocks) reusable += known.get(block) ?? 0;
    if (reusable < WORTH_REUSING) {
      // One native call beats the bookkeeping below for the many small messages of a session.
      const length = JSON.stringify(message).length;
      known.set(message, length);
      return length;
    }
    blocksLength = 2 + Math.max(0, message.blocks.length - 1);
    for (const block of message.blocks) blocksLength += known.get(block) ?? JSON.stringify(block).length;
  }
  // Meta objects are shared between a branch message and its active copy: measure each once.
  let metaLength = known.get(message.meta);
  if (metaLength === undefined) {
    metaLength = JSON.stringify(message.meta).length;
    known.set(message.meta, metaLength);
  }
  // Overwriting a key keeps its position, so the shell serializes in the same order;
  // each placeholder 0 stands for one character.
  const shell = JSON.stringify({ ...message, meta: 0, blocks: 0 }).length;
  const length = shell - 2 + metaLength + blocksLength;
  known.set(message, length);
  return length;
}
