/** The one way to shorten a text for a label, a preview or a one-line summary. */

/** `text` cut to at most `max` characters, the cut marked with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

/** `text` on one line (runs of white space become one space), cut to at most `max` characters. */
export function oneLine(text: string, max: number): string {
  return truncate(text.replace(/\s+/g, " ").trim(), max);
}
