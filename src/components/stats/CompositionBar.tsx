/** What the active context is made of, by category of the model's view, in tokens (core/composition.ts, as the report shows it). */
import type { ViewTokenFigures } from "../../worker/protocol.ts";
import { formatCount } from "../format.ts";

const COLORS: Record<string, string> = {
  userProse: "var(--c1)",
  assistantProse: "var(--c2)",
  toolCalls: "var(--c3)",
  toolOutput: "var(--c4)",
  thinking: "var(--c5)",
  markers: "var(--c6)",
  summaries: "#c99a06",
  instructions: "#c2185b",
  images: "#7c8f00",
  other: "var(--c7)",
};

/** `caption`: what the active pane holds ("Active context", or "After compaction #N" in an audit). */
export function CompositionBar({ figures, caption }: { figures: ViewTokenFigures; caption: string }) {
  const parts = figures.composition;
  const total = parts.reduce((sum, part) => sum + part.tokens, 0) || 1;
  const share = (tokens: number) => Math.round((tokens / total) * 100);
  const estimate = parts.some((part) => part.estimated > 0);
  return (
    <div className="composition-block" data-testid="composition">
      <div className="composition" role="img" aria-label={`${caption} by tokens of the model's view: ${parts.map((p) => `${p.label} ${share(p.tokens)}%`).join(", ")}`}>
        {parts.map((part) => (
          <div
            key={part.category}
            className="composition-part"
            data-testid="composition-part"
            data-category={part.category}
            data-tokens={part.tokens}
            style={{ flexGrow: part.tokens, background: COLORS[part.category] ?? "var(--dim)" }}
            title={`${part.label}: ${formatCount(part.tokens)} tokens${part.estimated > 0 ? " (partly estimated)" : ""}`}
          />
        ))}
      </div>
      <ul className="composition-legend">
        <li className="composition-caption">
          {caption}
          {estimate ? " (estimate, counting…)" : ""}:
        </li>
        {parts.map((part) => (
          <li key={part.category}>
            <span className="swatch" style={{ background: COLORS[part.category] ?? "var(--dim)" }} /> {part.label} {share(part.tokens)}% · {formatCount(part.tokens)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Share of the active context that is prose (what the prose cap can touch), in percent. */
export function proseShare(figures: ViewTokenFigures): number | null {
  const total = figures.composition.reduce((sum, part) => sum + part.tokens, 0);
  if (total === 0) return null;
  const prose = figures.composition.filter((p) => p.category === "userProse" || p.category === "assistantProse").reduce((sum, p) => sum + p.tokens, 0);
  return (prose / total) * 100;
}
