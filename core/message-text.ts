/**
 * A message as plain text, for one purpose each. The purposes differ on
 * purpose: search matches what a user can type (ids, labels, tool names),
 * grading is what a reader holding only the context could see, display is
 * what a person reads in the report. Prose alone is `textOf` (core/model.ts).
 */
import type { Block, Message } from "./model.ts";

export type TextPurpose = "search" | "grading" | "display";

const json = (value: unknown): string => JSON.stringify(value) ?? "";

/** One block's text for a purpose; undefined where the purpose leaves the block out. */
export function blockText(block: Block, purpose: TextPurpose): string | undefined {
  switch (block.type) {
    case "text":
      return block.text;
    case "thinking":
      return purpose === "display" ? `(thinking) ${block.text}` : block.text;
    case "toolCall":
      return purpose === "search" ? `${block.name} ${JSON.stringify(block.arguments)}` : `→ ${block.name} ${JSON.stringify(block.arguments)}`;
    case "omitted":
      if (purpose === "search") return `${block.label} ${block.recoveryId}`;
      if (purpose === "grading") return `[moved out: ${block.label} · recover ${block.recoveryId}]`;
      return `[moved out: ${block.label} · ${block.recoveryId} · sha256 ${block.sha256.slice(0, 12)}…]`;
    case "image":
      return purpose === "search" ? undefined : `[image ${block.mimeType}]`;
    case "raw":
      return purpose === "search" ? undefined : json(block.value);
  }
}

function blockTexts(message: Message, purpose: TextPurpose): string[] {
  const out: string[] = [];
  for (const block of message.blocks) {
    const text = blockText(block, purpose);
    if (text !== undefined) out.push(text);
  }
  return out;
}

/** What find-in-session matches: the message id, then each block on its own line. */
export function searchText(message: Message): string {
  let out = message.id + "\n";
  for (const text of blockTexts(message, "search")) out += text + "\n";
  return out;
}

/** What a reader of the context sees of a message: its role, its blocks, a bash command. */
export function gradingText(message: Message): string {
  const parts = [`[${message.role}]`, ...blockTexts(message, "grading")];
  if (message.role === "bash" && typeof message.meta.command === "string") parts.push(`$ ${message.meta.command}`);
  return parts.join("\n");
}

/** What a person reads of a message in the report. */
export function displayText(message: Message): string {
  return blockTexts(message, "display").join("\n");
}
