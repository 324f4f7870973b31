import { setShowHelp, useApp } from "../store/store.ts";
import { KEY_BINDINGS } from "./keymap.ts";

function KeyList({ presenter }: { presenter: boolean }) {
  return (
    <dl className="keys">
      {KEY_BINDINGS.filter((binding) => !!binding.presenter === presenter).map(({ label, description }) => (
        <div key={label}>
          <dt>
            <kbd>{label}</kbd>
          </dt>
          <dd>{description}</dd>
        </div>
      ))}
    </dl>
  );
}

export function HelpOverlay() {
  const open = useApp((s) => s.showHelp);
  if (!open) return null;
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" onClick={() => setShowHelp(false)}>
      <div className="overlay-card" onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard</h2>
        <KeyList presenter={false} />
        <h3>In presenter mode</h3>
        <KeyList presenter={true} />
        <p className="dim">Scrolling one pane scrolls the other to the same source message. The URL remembers the strategy, branch and selected message for this file.</p>
        <button type="button" onClick={() => setShowHelp(false)} autoFocus>
          Close
        </button>
      </div>
    </div>
  );
}
