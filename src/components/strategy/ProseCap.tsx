/** The prose cap beside the strategy's description: it only touches prose, so the share of prose it can act on is shown with it. */
import { useState } from "react";
import { figuresFor, recompact, useApp, useTokens } from "../../store/store.ts";
import { proseShare } from "../stats/CompositionBar.tsx";

export function ProseCap() {
  const proseCap = useApp((s) => s.proseCap);
  const session = useApp((s) => s.session);
  const view = useApp((s) => s.view);
  const busy = useApp((s) => s.busy);
  const tokens = useTokens();
  const [capText, setCapText] = useState(proseCap === null ? "" : String(proseCap));
  const disabled = !session || busy !== null || !view || view.pending === true;
  const prose = view && !view.pending ? proseShare(figuresFor(view, tokens)) : null;

  const applyCap = () => {
    const trimmed = capText.trim();
    const cap = trimmed === "" ? null : Number(trimmed);
    if (cap !== null && (!Number.isInteger(cap) || cap < 0)) return;
    if (cap !== proseCap) void recompact({ proseCap: cap });
  };

  return (
    <label
      className="field prose-cap"
      title="A character budget for user and assistant prose only: past it, the oldest whole prose blocks move out first. Tool output, thinking and markers are not affected. Empty: no cap."
    >
      <span>Prose cap (chars, prose only)</span>
      <input
        className="cap-input"
        type="number"
        min={0}
        step={1000}
        placeholder="none"
        value={capText}
        disabled={disabled}
        onChange={(e) => setCapText(e.target.value)}
        onBlur={applyCap}
        onKeyDown={(e) => e.key === "Enter" && applyCap()}
        aria-label="Prose cap in characters (applies to prose only)"
      />
      {prose !== null ? (
        <span className="cap-hint dim" data-testid="prose-share">
          prose is {prose < 1 && prose > 0 ? "<1" : Math.round(prose)}% of the active context
        </span>
      ) : null}
    </label>
  );
}
