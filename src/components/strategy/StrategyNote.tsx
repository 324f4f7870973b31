/**
 * Beside the strategy picker: what the chosen strategy keeps and drops, who
 * uses it, and whether another gives the same result here. One line with its
 * "…" and a "more" toggle, so the header stays short; the prose cap sits at
 * its right because it is a setting of the strategy.
 */
import { useLayoutEffect, useRef, useState } from "react";
import { useApp, useTokens } from "../../store/store.ts";
import { STRATEGY_GUIDE } from "./guide.ts";
import { ProseCap } from "./ProseCap.tsx";

export function StrategyNote() {
  const strategy = useApp((s) => s.strategy);
  const view = useApp((s) => s.view);
  const equivalents = useTokens((s) => s.equivalents);
  const [expanded, setExpanded] = useState(false);
  const [clipped, setClipped] = useState(false);
  const text = useRef<HTMLParagraphElement>(null);
  const guide = STRATEGY_GUIDE[strategy];
  const result = view && equivalents?.viewId === view.id ? equivalents.result : null;
  const same = result && result.same.length > 0 ? result : null;

  useLayoutEffect(() => {
    const element = text.current;
    if (!element) return;
    const measure = () => setClipped(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [strategy, same, expanded]);

  // Auditing a recorded compaction, no strategy is on screen: the dropped panel says what the panes show.
  if (!guide || !view || view.audit) return null;
  return (
    <div className={`strategy-note${expanded ? " expanded" : ""}`} data-testid="strategy-description">
      <p ref={text} className="strategy-note-text">
        {same ? (
          <span data-testid="strategy-same" className="strategy-same">
            Same result as {same.same.map((s) => STRATEGY_GUIDE[s.strategy]?.short ?? s.label).join(" and ")} on this session. {same.same[0]!.reason}{" "}
          </span>
        ) : null}
        <strong>{guide.short}</strong> keeps {guide.keeps}; drops {guide.drops}. <span className="dim">In practice: {guide.practice}.</span>
      </p>
      {clipped || expanded ? (
        <button type="button" className="link-button" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
          {expanded ? "less" : "more"}
        </button>
      ) : null}
      <ProseCap />
    </div>
  );
}
