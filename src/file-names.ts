/** The one way to name what the app downloads: after the session file, without its extension. */

/** "session.jsonl" → "session". */
export function baseName(fileName: string): string {
  return fileName.replace(/\.[^.]+$/, "");
}

/** "session.jsonl", "transparent", "checkpoint.json" → "session.transparent.checkpoint.json". */
export function downloadName(fileName: string, ...parts: string[]): string {
  return [baseName(fileName), ...parts].join(".");
}
