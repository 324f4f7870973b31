/**
 * Where a fact came from, so a reviewer can check it with one click: the
 * message, its line in the file, the character span in that message's text
 * (`textOf(message)`) when the fact is a piece of it, and the quoted words.
 */
import { textOf, type Message } from "../model.ts";

export interface FactSource {
  messageId: string;
  /** 1-based line of the message in the source file, when the format has lines. */
  line?: number;
  /** [start, end) in `textOf(message)`. */
  span?: [number, number];
  quote: string;
  /** Who wrote the message (user, assistant, tool …), for a label a reader can place. */
  role?: string;
}

/** A source for a piece of a message's text; the span only when the quote is found there. */
export function sourceIn(message: Message, quote: string, at?: number): FactSource {
  const text = textOf(message);
  const start = at !== undefined && text.startsWith(quote, at) ? at : text.indexOf(quote);
  return {
    messageId: message.id,
    ...(message.line !== undefined ? { line: message.line } : {}),
    ...(start >= 0 && quote !== "" ? { span: [start, start + quote.length] as [number, number] } : {}),
    quote,
    role: message.role,
  };
}

/** A source for a fact that is not a piece of text (a tool call's argument, a path). */
export function sourceAt(message: Message, quote: string): FactSource {
  return { messageId: message.id, ...(message.line !== undefined ? { line: message.line } : {}), quote, role: message.role };
}
