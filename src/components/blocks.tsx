/** How each block kind is drawn, in a row and in the detail view. Text is always rendered as text. */
import type { ReactNode } from "react";
import { LINE_HEIGHT, TEXT_GAP, blockHeight } from "../layout/rows.ts";
import { recoverPayload, hideRecovered, toggleThinking, useApp, type RecoveryState } from "../store/store.ts";
import type { DisplayBlock, RowBlockView } from "../worker/protocol.ts";
import { formatBytes } from "./format.ts";

export function RowBlock({ block, rowKey, blockIndex, onJump }: { block: RowBlockView; rowKey: string; blockIndex: number; onJump: (row: number) => void }) {
  const style = { height: blockHeight(block) };
  switch (block.type) {
    case "text":
      return (
        <div className="block block-text" style={{ height: block.lines * LINE_HEIGHT, marginBottom: TEXT_GAP }}>
          {block.preview}
        </div>
      );
    case "thinking":
      return <ThinkingLine block={block} thinkingKey={`${rowKey}:${blockIndex}`} style={style} />;
    case "toolCall":
      return (
        <div className="block block-line block-call" style={style}>
          <span className="chip chip-call">→ {block.name}</span> <span className="mono dim">{block.preview}</span>
          {block.resultRow !== undefined && block.resultRow >= 0 ? (
            <button type="button" className="link-button" onClick={(e) => (e.stopPropagation(), onJump(block.resultRow!))} title="Jump to the result of this call">
              result ↓
            </button>
          ) : (
            <span className="dim"> (no result)</span>
          )}
        </div>
      );
    case "image":
      return (
        <div className="block block-line" style={style}>
          <span className="chip">image</span> <span className="dim">{block.preview}</span>
        </div>
      );
    case "raw":
      return (
        <div className="block block-line" style={style}>
          <span className="chip chip-raw">unknown block</span> <span className="mono dim">{block.preview}</span>
        </div>
      );
    case "omitted":
      return <OmissionMarker block={block} style={style} />;
  }
}

function ThinkingLine({ block, thinkingKey, style }: { block: RowBlockView; thinkingKey: string; style: { height: number } }) {
  const expanded = useApp((state) => state.expandedThinking[thinkingKey] === true);
  return (
    <div className="block block-line" style={style}>
      <button type="button" className="link-button" aria-expanded={expanded} onClick={(e) => (e.stopPropagation(), toggleThinking(thinkingKey))}>
        {expanded ? "▾" : "▸"} thinking
      </button>{" "}
      <span className="dim">
        {block.chars} chars{expanded ? "" : ` · ${block.preview}`}
      </span>
    </div>
  );
}

export function OmissionMarker({ block, style }: { block: RowBlockView; style?: { height: number } }) {
  const recoveryId = block.recoveryId!;
  const state = useApp((s) => s.recovered[recoveryId]);
  return (
    <div className="block omission" style={style} data-testid="omission-marker" data-recovery-id={recoveryId} data-sha256={block.sha256}>
      <div className="omission-label">
        <span className={`chip chip-kind kind-${block.kind}`}>{block.kind}</span> {block.label}
      </div>
      <div className="omission-meta">
        <span className="mono dim" title={`sha256 ${block.sha256}`}>
          sha256 {block.sha256!.slice(0, 12)}… · {formatBytes(block.bytes ?? 0)}
        </span>
        {state?.status === "done" ? (
          <button type="button" className="small" onClick={(e) => (e.stopPropagation(), hideRecovered(recoveryId))}>
            Hide
          </button>
        ) : (
          <button
            type="button"
            className="small primary"
            data-testid="recover-button"
            disabled={state?.status === "loading"}
            onClick={(e) => (e.stopPropagation(), void recoverPayload(recoveryId))}
          >
            {state?.status === "loading" ? "Recovering…" : "Recover"}
          </button>
        )}
      </div>
    </div>
  );
}

/** The recovered payload under a marker: verified against its hash, or a red mismatch. */
export function RecoveredPayload({ recoveryId, state, height }: { recoveryId: string; state: RecoveryState; height?: number }) {
  if (state.status === "loading") return <div className="recovered pending" style={{ height }}>Recovering and checking the hash…</div>;
  if (state.status === "error") return <div className="recovered mismatch" style={{ height }} role="alert">Could not recover {recoveryId}: {state.message}</div>;
  const { result } = state;
  return (
    <div className={`recovered ${result.verified ? "verified" : "mismatch"}`} style={{ height }} data-testid="recovered-payload" data-verified={String(result.verified)} data-recovery-id={recoveryId}>
      <div className="recovered-head">
        {result.verified ? (
          <span className="badge badge-ok" title={`sha256 ${result.found}`}>✓ verified · sha256 {result.found.slice(0, 12)}… · {formatBytes(result.bytes)}</span>
        ) : (
          <span className="badge badge-bad" role="alert">
            ✗ hash mismatch: expected {result.expected.slice(0, 16)}…, found {result.found.slice(0, 16)}…
          </span>
        )}
        {result.blocks.some((b) => b.truncated) ? (
          <button type="button" className="small" onClick={() => void recoverPayload(recoveryId, true)}>
            Show all
          </button>
        ) : null}
      </div>
      <div className="recovered-body">
        {result.blocks.map((block, i) => (
          <DisplayBlockView key={i} block={block} />
        ))}
      </div>
    </div>
  );
}

export function DisplayBlockView({ block, onShowAll }: { block: DisplayBlock; onShowAll?: () => void }): ReactNode {
  const more = block.truncated ? (
    <div className="gate">
      Showing {block.text.length.toLocaleString()} of {block.totalChars.toLocaleString()} characters.{" "}
      {onShowAll ? (
        <button type="button" className="small" onClick={onShowAll}>
          Show all
        </button>
      ) : null}
    </div>
  ) : null;
  switch (block.type) {
    case "image":
      return (
        <div className="display-block">
          <span className="chip">image</span> <span className="dim">{block.text}</span>
          {block.imageUrl ? <img className="session-image" src={block.imageUrl} alt={`image from the session (${block.mimeType})`} /> : null}
        </div>
      );
    case "omitted":
      return (
        <div className="display-block">
          <span className="chip chip-kind">moved out</span> {block.label} <span className="mono dim">{block.recoveryId}</span>
        </div>
      );
    case "toolCall":
      return (
        <div className="display-block">
          <span className="chip chip-call">→ {block.name}</span>
          <pre className="pre">{block.text}</pre>
          {more}
        </div>
      );
    default:
      return (
        <div className={`display-block display-${block.type}`}>
          {block.type !== "text" ? <span className="chip">{block.type === "raw" ? "unknown block" : block.type}</span> : null}
          <pre className="pre">{block.text}</pre>
          {more}
        </div>
      );
  }
}
