/**
 * The active context as a reader sees it: plain text, one entry per line,
 * each line remembering the message it came from (for evidence links).
 */
import type { Message } from "../model.ts";

export interface ContextLine {
  messageId: string;
  text: string;
}

export function contextLines(active: readonly Message[]): ContextLine[] {
  const lines: ContextLine[] = [];
  for (const message of active) {
    const push = (text: string) => {
      for (const line of text.split("\n")) if (line.trim() !== "") lines.push({ messageId: message.id, text: line });
    };
    push(`[${message.role}]`);
    for (const block of message.blocks) {
      switch (block.type) {
        case "text":
        case "thinking":
          push(block.text);
          break;
        case "toolCall":
          push(`→ ${block.name} ${JSON.stringify(block.arguments)}`);
          break;
        case "omitted":
          push(`[moved out: ${block.label} · recover ${block.recoveryId}]`);
          break;
        case "image":
          push(`[image ${block.mimeType}]`);
          break;
        case "raw":
          push(JSON.stringify(block.value) ?? "");
          break;
      }
    }
    if (message.role === "bash" && typeof message.meta.command === "string") push(`$ ${message.meta.command}`);
  }
  return lines;
}

export function contextText(active: readonly Message[]): string {
  return contextLines(active)
    .map((line) => line.text)
    .join("\n");
}
