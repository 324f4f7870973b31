/**
 * The active context as a reader sees it: plain text, one entry per line,
 * each line remembering the message it came from (for evidence links).
 */
import { gradingText } from "../message-text.ts";
import type { Message } from "../model.ts";

export interface ContextLine {
  messageId: string;
  text: string;
}

export function contextLines(active: readonly Message[]): ContextLine[] {
  const lines: ContextLine[] = [];
  for (const message of active) {
    for (const line of gradingText(message).split("\n")) if (line.trim() !== "") lines.push({ messageId: message.id, text: line });
  }
  return lines;
}

export function contextText(active: readonly Message[]): string {
  return contextLines(active)
    .map((line) => line.text)
    .join("\n");
}
