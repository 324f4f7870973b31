/** Beside the strategy picker: what the chosen strategy keeps and drops, who uses it, and whether another gives the same result here. */
import { useApp, useTokens } from "../../store/store.ts";
import { STRATEGY_GUIDE } from "./guide.ts";

export function StrategyNote() {
  const strategy = useApp((s) => s.strategy);
  const view = useApp((s) => s.view);
  const equivalents = useTokens((s) => s.equivalents);
  const guide = STRATEGY_GUIDE[strategy];
  if (!guide || !view) return null;
  const result = equivalents?.viewId === view.id ? equivalents.result : null;
  return (
    <div className="strategy-note" data-testid="strategy-description">
      <p>
        <strong>{guide.short}</strong> keeps {guide.keeps}; drops {guide.drops}. <span className="dim">In practice: {guide.practice}.</span>
      </p>
      {result && result.same.length > 0 ? (
        <p data-testid="strategy-same" className="strategy-same">
          Same result as {result.same.map((s) => STRATEGY_GUIDE[s.strategy]?.short ?? s.label).join(" and ")} on this session. {result.same[0]!.reason}
        </p>
      ) : null}
    </div>
  );
}
