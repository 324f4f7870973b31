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

/** One message's lines (blank ones left out). */
export function messageLines(message: Message): ContextLine[] {
  const lines: ContextLine[] = [];
  for (const line of gradingText(message).split("\n")) if (line.trim() !== "") lines.push({ messageId: message.id, text: line });
  return lines;
}

export function contextLines(active: readonly Message[]): ContextLine[] {
  return active.flatMap(messageLines);
}

export function contextText(active: readonly Message[]): string {
  return contextLines(active)
    .map((line) => line.text)
    .join("\n");
}
