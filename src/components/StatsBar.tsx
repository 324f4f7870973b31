/** Original vs active size, what moved out, and what the active context is made of. */
import { useApp } from "../store/store.ts";
import { formatCount, formatSeconds } from "./format.ts";

const COLORS = ["var(--c1)", "var(--c2)", "var(--c3)", "var(--c4)", "var(--c5)", "var(--c6)", "var(--c7)"];

export function StatsBar() {
  const view = useApp((s) => s.view);
  const session = useApp((s) => s.session);
  if (!view || !session) return null;
  if (view.pending) return <div className="stats" aria-busy="true">Compacting… the statistics appear when the active context is ready.</div>;
  const { stats } = view;
  const total = view.composition.reduce((sum, part) => sum + part.chars, 0) || 1;
  const ratio = stats.originalChars > 0 ? stats.activeChars / stats.originalChars : 0;
  return (
    <div className="stats" aria-label="Compaction statistics">
      <dl className="stat-list">
        <div>
          <dt>Original</dt>
          <dd>
            <span data-testid="stats-original-chars">{formatCount(stats.originalChars)}</span> chars · ~{formatCount(view.estimatedTokens.original)} tokens
          </dd>
        </div>
        <div>
          <dt>Active</dt>
          <dd>
            <span data-testid="stats-active-chars">{formatCount(stats.activeChars)}</span> chars · ~{formatCount(view.estimatedTokens.active)} tokens ({(ratio * 100).toFixed(1)}%)
          </dd>
        </div>
        <div>
          <dt>Moved out</dt>
          <dd>
            <span data-testid="stats-payloads">{formatCount(stats.payloads)}</span> payloads{stats.capped > 0 ? ` (${stats.capped} prose blocks capped)` : ""}
          </dd>
        </div>
        <div>
          <dt>Prose verbatim</dt>
          <dd>
            {formatCount(stats.proseVerbatim)} / {formatCount(stats.proseSegments)} segments
          </dd>
        </div>
        <div>
          <dt>Metadata kept</dt>
          <dd>{formatCount(stats.metadataFields)} fields</dd>
        </div>
        <div>
          <dt>Session</dt>
          <dd>
            {session.format}
            {session.formatVersion ? ` ${session.formatVersion}` : ""} · {formatCount(session.toolCalls)} tool calls
            {session.recordedCompactions > 0 ? ` · ${session.recordedCompactions} recorded compaction${session.recordedCompactions > 1 ? "s" : ""}` : ""}
            {view.round > 0 ? ` · round ${view.round + 1}` : ""}
          </dd>
          <dd className="dim" data-testid="stats-timings" title="Measured in the worker on this machine, for this file: reading it and decoding it into JSON records, building the session from those records, and the compaction.">
            read and decoded {formatSeconds(session.timings.readMs)} · session built {formatSeconds(session.timings.parseMs)}
            {view.pending ? "" : ` · compacted ${formatSeconds(view.compactMs)}`}
          </dd>
        </div>
      </dl>
      <div className="composition" role="img" aria-label={`Active context: ${view.composition.map((p) => `${p.label} ${Math.round((p.chars / total) * 100)}%`).join(", ")}`}>
        {view.composition.map((part, i) => (
          <div key={part.label} className="composition-part" style={{ flexGrow: part.chars, background: COLORS[i % COLORS.length] }} title={`${part.label}: ${formatCount(part.chars)} chars`} />
        ))}
      </div>
      <ul className="composition-legend">
        {view.composition.map((part, i) => (
          <li key={part.label}>
            <span className="swatch" style={{ background: COLORS[i % COLORS.length] }} /> {part.label} {Math.round((part.chars / total) * 100)}%
          </li>
        ))}
      </ul>
    </div>
  );
}
