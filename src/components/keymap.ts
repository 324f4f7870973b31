/**
 * The keyboard map: one list that both the key handler (App.tsx) and the help
 * overlay read, so a key cannot work without being listed or be listed
 * without working.
 */
import { recompact, recoverSelected, stepOmission, stepRow, stepStory, toggleHelp, triageFocused } from "../store/store.ts";

export interface KeyBinding {
  /** KeyboardEvent.key values this binding answers. */
  keys: string[];
  /** As the help shows the keys. */
  label: string;
  description: string;
  /** Only in presenter mode (it wins there over the ordinary map). */
  presenter?: boolean;
  /** Undefined where the handler does it itself (Esc, "/" focusing the find box). */
  run?: (key: string) => void;
}

export const KEY_BINDINGS: readonly KeyBinding[] = [
  { keys: ["j", "k"], label: "j / k", description: "next / previous message", run: (key) => void stepRow(key === "j" ? 1 : -1) },
  { keys: ["n", "p"], label: "n / p", description: "next / previous omission marker", run: (key) => void stepOmission(key === "n" ? 1 : -1) },
  { keys: ["Enter"], label: "Enter", description: "recover every payload of the selected message", run: () => void recoverSelected() },
  { keys: ["/"], label: "/", description: "find in session (Enter: next match, Shift+Enter: previous)" },
  { keys: ["a"], label: "a", description: "accept the answer-key candidate whose source is shown, then show the next", run: () => void triageFocused("accept") },
  { keys: ["x"], label: "x", description: "strike (or restore) that candidate, then show the next", run: () => void triageFocused("strike") },
  { keys: ["Escape"], label: "Esc", description: "close this help, the selection or the find box" },
  { keys: ["?"], label: "?", description: "this help", run: () => toggleHelp() },
  {
    keys: ["ArrowRight", "ArrowLeft"],
    label: "→ / ←",
    description: "next / previous step of the compactions' story (omission markers when the file records none)",
    presenter: true,
    run: (key) => stepStory(key === "ArrowRight" ? 1 : -1),
  },
  { keys: ["ArrowDown"], label: "↓", description: "the next compaction round (and its score)", presenter: true, run: () => void recompact({ fromPrevious: true }) },
];

/** The binding for a key, presenter bindings first while presenting. */
export function bindingFor(key: string, presenting: boolean): KeyBinding | undefined {
  return (presenting ? KEY_BINDINGS.find((b) => b.presenter && b.keys.includes(key)) : undefined) ?? KEY_BINDINGS.find((b) => !b.presenter && b.keys.includes(key));
}
