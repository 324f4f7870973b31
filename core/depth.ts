/**
 * How deeply a value nests, measured without recursion. JSON.stringify (and so
 * hashing, stats, the checkpoint writer) recurses, and a value nested some
 * thousands of levels deep overflows the stack; this finds the message that
 * did it, so the error can name its line instead of "Maximum call stack size
 * exceeded".
 */
import type { Message } from "./model.ts";

export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (!current || typeof current !== "object") continue;
    if (depth > deepest) deepest = depth;
    for (const inner of Array.isArray(current) ? current : Object.values(current)) if (inner && typeof inner === "object") stack.push([inner, depth + 1]);
  }
  return deepest;
}

/** The most deeply nested message, with its depth (undefined for no messages). */
export function deepestMessage(messages: readonly Message[]): { message: Message; depth: number } | undefined {
  let found: { message: Message; depth: number } | undefined;
  for (const message of messages) {
    const depth = nestingDepth(message);
    if (!found || depth > found.depth) found = { message, depth };
  }
  return found;
}

export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack size/i.test(error.message);
}
