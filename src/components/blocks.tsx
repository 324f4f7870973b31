/** How each block kind is drawn, in a row and in the detail view. Text is always rendered as text. */
import { useRef, type ReactNode } from "react";
import { LINE_HEIGHT, TEXT_GAP, blockHeight } from "../layout/rows.ts";
import { recoverPayload, hideRecovered, toggleThinking, useApp, type RecoveryState } from "../store/store.ts";
import type { DisplayBlock, RowBlockView } from "../worker/protocol.ts";
import { formatBytes } from "./format.ts";

/** Sizes in the panes are exact bytes, the unit of the markers' labels, so one block reads the same on both sides. */
function exactBytes(bytes: number): string {
  return `${bytes.toLocaleString()} bytes`;
}
import { Highlighted } from "./panes/Highlight.tsx";
import { useOverflow } from "./panes/overflow.ts";

export function RowBlock({ block, rowKey, blockIndex, onJump }: { block: RowBlockView; rowKey: string; blockIndex: number; onJump: (row: number) => void }) {
  const style = { height: blockHeight(block) };
  const expandKey = `${rowKey}:${blockIndex}`;
  switch (block.type) {
    case "text":
      return <TextPreview block={block} expandKey={expandKey} />;
    case "thinking":
      return <ThinkingLine block={block} thinkingKey={expandKey} style={style} />;
    case "toolCall":
      return (
        <div className="block block-line block-call" style={style}>
          <span className="chip chip-call">→ {block.name}</span>
          {block.resultRow !== undefined && block.resultRow >= 0 ? (
            <button type="button" className="link-button" onClick={(e) => (e.stopPropagation(), onJump(block.resultRow!))} title="Jump to the result of this call">
              result ↓
            </button>
          ) : (
            <span className="dim no-shrink" title="This pane holds no result of this call: the file did not record one (or it is outside this pane)">
              (no result here)
            </span>
          )}
          <OneLine text={block.preview} chars={block.chars} expandKey={expandKey} mono />
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
          <span className="chip chip-raw">unknown block</span>
          <OneLine text={block.preview} chars={block.chars} expandKey={expandKey} mono />
        </div>
      );
    case "omitted":
      return <OmissionMarker block={block} style={style} />;
  }
}

/** The "… more" / "Show less" toggle of a block opened in place. */
function MoreButton({ expandKey, label = "more" }: { expandKey: string; label?: string }) {
  const expanded = useApp((state) => state.expandedThinking[expandKey] === true);
  return (
    <button type="button" className="link-button more-button" data-testid="expand-block" aria-expanded={expanded} onClick={(e) => (e.stopPropagation(), toggleThinking(expandKey))}>
      {expanded ? "Show less" : `… ${label}`}
    </button>
  );
}

/**
 * A text preview clamped to its lines with a visible "…" (CSS line-clamp); when the text
 * does not fit (cut by the worker, or wrapped past its lines at this width) a "… more" opens it in place.
 */
function TextPreview({ block, expandKey }: { block: RowBlockView; expandKey: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const cutByWorker = block.cut === true;
  const overflows = useOverflow(ref, "y", block.preview);
  const clipped = cutByWorker || overflows;
  return (
    <div className="block block-text-wrap" style={{ height: block.lines * LINE_HEIGHT, marginBottom: TEXT_GAP }}>
      <div ref={ref} className={`block-text${clipped ? " clipped" : ""}`} data-clipped={clipped ? "true" : undefined} style={{ WebkitLineClamp: block.lines }}>
        <Highlighted text={block.preview} />
      </div>
      {clipped ? <MoreButton expandKey={expandKey} /> : null}
    </div>
  );
}

/** A one-line preview that ends in "…" when it does not fit, with a "… more" to open the block in place. */
function OneLine({ text, chars, expandKey, mono }: { text: string; chars: number; expandKey: string; mono?: boolean }) {
  const ref = useRef<HTMLSpanElement>(null);
  const overflows = useOverflow(ref, "x", text);
  const clipped = overflows || text.length < chars;
  return (
    <>
      <span ref={ref} className={`one-line dim${mono ? " mono" : ""}`} data-clipped={clipped ? "true" : undefined}>
        <Highlighted text={text} />
      </span>
      {clipped ? <MoreButton expandKey={expandKey} /> : null}
    </>
  );
}

function ThinkingLine({ block, thinkingKey, style }: { block: RowBlockView; thinkingKey: string; style: { height: number } }) {
  const expanded = useApp((state) => state.expandedThinking[thinkingKey] === true);
  if (block.opaqueBytes !== undefined && block.chars === 0) {
    return (
      <div className="block block-line" style={style}>
        <span className="chip">thinking</span>{" "}
        <span className="dim" title="The provider returns this reasoning encrypted; the session keeps it only as an opaque payload.">
          encrypted, {exactBytes(block.opaqueBytes)} (not readable)
        </span>
      </div>
    );
  }
  return (
    <div className="block block-line" style={style}>
      <button type="button" className="link-button no-shrink" aria-expanded={expanded} onClick={(e) => (e.stopPropagation(), toggleThinking(thinkingKey))}>
        {expanded ? "▾" : "▸"} thinking
      </button>
      <span
        className="dim no-shrink"
        title={`${block.chars.toLocaleString()} characters, ${(block.bytes ?? 0).toLocaleString()} bytes in UTF-8. Moved out, the stored payload can be larger: it also keeps the block's JSON, its signature and any encrypted copy.`}
      >
        {exactBytes(block.bytes ?? 0)} of text
        {block.opaqueBytes !== undefined ? ` + ${exactBytes(block.opaqueBytes)} encrypted (not readable)` : ""}
      </span>
      {expanded ? null : (
        <span className="one-line dim">
          · <Highlighted text={block.preview} />
        </span>
      )}
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
          sha256 {block.sha256!.slice(0, 12)}…
        </span>
        <span className="dim" title="Bytes of the stored payload: its JSON, including any signature and metadata, so more than the characters of its text">
          {exactBytes(block.bytes ?? 0)} stored as JSON
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
  if (state.status === "loading")
    return (
      <div className="recovered pending" style={{ height }}>
        Recovering and checking the hash…
      </div>
    );
  if (state.status === "error")
    return (
      <div className="recovered mismatch" style={{ height }} role="alert">
        Could not recover {recoveryId}: {state.message}
      </div>
    );
  const { result } = state;
  return (
    <div
      className={`recovered ${result.verified ? "verified" : "mismatch"}`}
      style={{ height }}
      data-testid="recovered-payload"
      data-verified={String(result.verified)}
      data-recovery-id={recoveryId}
    >
      <div className="recovered-head">
        {result.verified ? (
          <span className="badge badge-ok" title={`sha256 ${result.found}`}>
            ✓ verified · sha256 {result.found.slice(0, 12)}… · {formatBytes(result.bytes)}
          </span>
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
        <div className="display-block" data-testid="omission-marker" data-recovery-id={block.recoveryId} data-sha256={block.sha256}>
          <span className="chip chip-kind">moved out</span> {block.label} <span className="mono dim">{block.recoveryId}</span>
        </div>
      );
    case "toolCall":
      return (
        <div className="display-block">
          <span className="chip chip-call">→ {block.name}</span>
          <pre className="pre">
            <Highlighted text={block.text} />
          </pre>
          {more}
        </div>
      );
    default:
      return (
        <div className={`display-block display-${block.type}`}>
          {block.type !== "text" ? <span className="chip">{block.type === "raw" ? "unknown block" : block.type}</span> : null}
          <pre className="pre">
            <Highlighted text={block.text} />
          </pre>
          {more}
        </div>
      );
  }
}
