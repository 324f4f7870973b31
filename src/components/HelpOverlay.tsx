import { useApp } from "../store/store.ts";

const KEYS: [string, string][] = [
  ["j / k", "next / previous message"],
  ["n / p", "next / previous omission marker"],
  ["Enter", "recover every payload of the selected message"],
  ["/", "find in session (Enter: next match, Shift+Enter: previous)"],
  ["Esc", "close this help, the selection or the find box"],
  ["?", "this help"],
];

export function HelpOverlay() {
  const open = useApp((s) => s.showHelp);
  if (!open) return null;
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" onClick={() => useApp.setState({ showHelp: false })}>
      <div className="overlay-card" onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard</h2>
        <dl className="keys">
          {KEYS.map(([key, what]) => (
            <div key={key}>
              <dt>
                <kbd>{key}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
        <p className="dim">Scrolling one pane scrolls the other to the same source message. The URL remembers the strategy, branch and selected message for this file.</p>
        <button type="button" onClick={() => useApp.setState({ showHelp: false })} autoFocus>
          Close
        </button>
      </div>
    </div>
  );
}
