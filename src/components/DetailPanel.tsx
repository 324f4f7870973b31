/** The selected message in full: source and active side by side, the word diff, recover all. */
import { recoverAll, select, showFull, showFullDiff, useApp } from "../store/store.ts";
import type { MessageDetail } from "../worker/protocol.ts";
import { DisplayBlockView, RecoveredPayload } from "./blocks.tsx";
import { ROLE_LABELS } from "./format.ts";

function MessageColumn({ title, detail }: { title: string; detail: MessageDetail | null }) {
  const recovered = useApp((s) => s.recovered);
  if (!detail) return <div className="detail-column empty">{title}: not in this view (summarised away or added by the strategy).</div>;
  const markers = detail.blocks.flatMap((b) => (b.recoveryId ? [b.recoveryId] : []));
  return (
    <div className="detail-column">
      <h3>
        {title} · {ROLE_LABELS[detail.role] ?? detail.role} <span className="mono dim">{detail.id}</span>
      </h3>
      {markers.length > 0 ? (
        <button type="button" className="small primary" onClick={() => void recoverAll(markers)}>
          Recover all in this message ({markers.length})
        </button>
      ) : null}
      {detail.blocks.length === 0 ? <p className="dim">(no content)</p> : null}
      {detail.blocks.map((block, i) => (
        <div key={i}>
          <DisplayBlockView block={block} onShowAll={() => void showFull(detail.pane, detail.index)} />
          {block.recoveryId && recovered[block.recoveryId] ? <RecoveredPayload recoveryId={block.recoveryId} state={recovered[block.recoveryId]!} /> : null}
        </div>
      ))}
      <details className="meta">
        <summary>Metadata</summary>
        <pre className="pre">{detail.meta}</pre>
      </details>
    </div>
  );
}

export function DetailPanel() {
  const detail = useApp((s) => s.detail);
  const selected = useApp((s) => s.selected);
  if (!selected || !detail) return null;
  return (
    <section className="detail" aria-label="Selected message">
      <header className="detail-head">
        <h2>Selected message</h2>
        <button type="button" className="small" onClick={() => void select(null)} aria-label="Close the selected message">
          Close
        </button>
      </header>
      {detail.diff ? (
        <div className="diff" aria-label="Word diff of the active text against the source">
          <h3>What changed (word diff, source → active)</h3>
          {detail.diff.gated ? (
            <p>
              The texts are long ({detail.diff.sourceChars.toLocaleString()} and {detail.diff.activeChars.toLocaleString()} characters).{" "}
              <button type="button" className="small" onClick={() => void showFullDiff(detail.diff!.index)}>
                Compute the diff
              </button>
            </p>
          ) : (
            <pre className="pre diff-body">
              {detail.diff.parts.map((part, i) => (
                <span key={i} className={part.added ? "added" : part.removed ? "removed" : undefined}>
                  {part.value}
                </span>
              ))}
            </pre>
          )}
        </div>
      ) : null}
      <div className="detail-columns">
        <MessageColumn title="Original" detail={detail.original} />
        <MessageColumn title="Active" detail={detail.active} />
      </div>
    </section>
  );
}
