/**
 * The checkride's answer key on screen: the user's edits (struck and added
 * facts, kept in the URL hash and sent with the checkride request so the
 * worker grades with them), and jumping both panes to a fact's source.
 */
import type { KeyEdits, ShownCandidate } from "../../core/checkride/key-edits.ts";
import type { FactSource } from "../../core/checkride/source.ts";
import { runCheckride } from "./checkride.ts";
import { writeDeepLink } from "./deep-links.ts";
import { requestScroll, select } from "./navigation.ts";
import { client, get, ready, set, viewId } from "./state.ts";

function setEdits(edits: KeyEdits): void {
  set((state) => ({ checkride: { ...state.checkride, edits } }));
  writeDeepLink();
  // The literal reader is quick: results on screen are graded again with the edited key (in the worker).
  const { results, settings, task } = get().checkride;
  if (results && settings.reader === "literal" && !task) void runCheckride();
}

export function setKeyEdits(edits: KeyEdits): void {
  setEdits({ struck: [...edits.struck], added: [...edits.added] });
}

export function isStruck(edits: KeyEdits, probe: string, fact: string): boolean {
  return edits.struck.some((s) => s.probe === probe && s.fact === fact);
}

/** Strike a fact out of the key, or put it back. */
export function toggleStruck(probe: string, fact: string): void {
  const { edits } = get().checkride;
  const struck = isStruck(edits, probe, fact) ? edits.struck.filter((s) => !(s.probe === probe && s.fact === fact)) : [...edits.struck, { probe, fact }];
  setEdits({ ...edits, struck });
}

/** Strikes every one of these facts not struck yet, as one edit (one re-grade): a reason's candidates at once. */
export function strikeAll(probe: string, facts: readonly string[]): void {
  const { edits } = get().checkride;
  const more = facts.filter((fact) => !isStruck(edits, probe, fact)).map((fact) => ({ probe, fact }));
  if (more.length > 0) setEdits({ ...edits, struck: [...edits.struck, ...more] });
}

/** Lists these facts again, as one edit: the undo of strikeAll. */
export function restoreAll(probe: string, facts: readonly string[]): void {
  const { edits } = get().checkride;
  const restored = new Set(facts);
  const struck = edits.struck.filter((s) => !(s.probe === probe && restored.has(s.fact)));
  if (struck.length !== edits.struck.length) setEdits({ ...edits, struck });
}

export function addFact(probe: string, text: string): void {
  const trimmed = text.trim();
  const { edits } = get().checkride;
  if (!trimmed || edits.added.some((a) => a.probe === probe && a.text === trimmed)) return;
  setEdits({ ...edits, added: [...edits.added, { probe, text: trimmed }] });
}

export function removeAddedFact(probe: string, text: string): void {
  const { edits } = get().checkride;
  setEdits({ ...edits, added: edits.added.filter((a) => !(a.probe === probe && a.text === text)) });
}

export function resetKeyEdits(): void {
  setEdits({ struck: [], added: [] });
}

/** The answer-key candidate whose source was last shown (candidates' focus indices are -1, -2 …), with its probe's list. */
function focusedCandidate(): { strategy: string; probe: string; at: number; candidates: ShownCandidate[] } | null {
  const { focused, results } = get().checkride;
  if (!focused || focused.index >= 0 || !results) return null;
  const candidates = results.find((r) => r.strategy === focused.strategy)?.probes.find((p) => p.id === focused.probe)?.candidates ?? [];
  const at = -1 - focused.index;
  return at < candidates.length ? { strategy: focused.strategy, probe: focused.probe, at, candidates } : null;
}

/**
 * The keyboard's triage of a long candidate list (a: accept, x: strike or restore): acts on the
 * candidate whose source is shown, then shows the next one not struck, so sixty candidates are read
 * and decided without the mouse. An accepted candidate leaves the list: the next one takes its place.
 */
export async function triageFocused(action: "accept" | "strike"): Promise<void> {
  const current = focusedCandidate();
  if (!current) return;
  const candidate = current.candidates[current.at]!;
  if (action === "accept" && candidate.struck) return;
  if (action === "accept") addFact(current.probe, candidate.text);
  else toggleStruck(current.probe, candidate.text);
  let next = current.at + 1;
  while (next < current.candidates.length && current.candidates[next]!.struck) next++;
  const following = current.candidates[next];
  if (!following?.source) return;
  const indexAfter = action === "accept" ? next - 1 : next;
  await jumpToSource(following.source, { strategy: current.strategy, probe: current.probe, index: -1 - indexAfter });
}

const nextFrame = () => new Promise<void>((resolve) => (typeof requestAnimationFrame === "function" ? requestAnimationFrame(() => resolve()) : setTimeout(resolve, 0)));

/**
 * Both panes to where a fact came from: the original pane to its message; the
 * active pane to the same message, or to the marker or summary that stands in
 * its place (the first active row after the last message before it that was kept).
 */
export async function jumpToSource(source: FactSource, focused: { strategy: string; probe: string; index: number }): Promise<void> {
  set((state) => ({ checkride: { ...state.checkride, focused } }));
  if (!ready()) return;
  const view = get().view!;
  const where = await client().request({ type: "locate", view: viewId(), messageId: source.messageId }).promise;
  if (where.original < 0) {
    if (where.active >= 0) await select({ pane: "active", index: where.active });
    return;
  }
  let active = where.active;
  if (active < 0) {
    const aligned = view.original.aligned;
    let before = -1;
    for (let i = where.original - 1; i >= 0; i--)
      if ((aligned[i] ?? -1) >= 0) {
        before = aligned[i]!;
        break;
      }
    active = Math.min(before + 1, Math.max(0, view.active.count - 1));
  }
  await select({ pane: "original", index: where.original });
  // One scroll request at a time: the active pane's after the original's has been seen.
  await nextFrame();
  if (get().view === view && active >= 0) requestScroll("active", active);
}
