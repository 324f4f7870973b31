/**
 * JSON that was already made of a value nobody changes afterwards, kept for
 * the checkpoint writer (core/checkpoint-json.ts) so that it does not
 * serialize the same value twice. Only the active view is kept: the
 * transparent strategy serializes it whole for its stats, and the writer
 * needs exactly that JSON (for a generated 100 MB session an 18 MB string
 * that takes ~0.1 s to make, measured).
 *
 * Off by default, because a kept string lives as long as its view: the CLI's
 * `compact`, which writes its checkpoint as soon as it is made, turns it on;
 * the app's worker, which holds checkpoints for as long as a session is open
 * and exports one now and then, and the CLI's other commands, which make
 * views they never write, do not.
 */
let keeping = false;
const kept = new WeakMap<object, string>();

export function keepSerializedViews(on: boolean): void {
  keeping = on;
}

/** `json` must be JSON.stringify(value), and value must not change from now on. */
export function rememberJson(value: object, json: string): void {
  if (keeping) kept.set(value, json);
}

export function rememberedJson(value: object): string | undefined {
  return kept.get(value);
}
