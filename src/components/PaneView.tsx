/**
 * One virtualized pane (react-window 2). Rows are fixed-height per content
 * (heights come from the worker), plus the boxes the user opened. Row
 * projections come from the bounded page cache; a row not fetched yet shows
 * a placeholder of the right height.
 */
import { useCallback, useEffect, useMemo, type CSSProperties, type ReactElement } from "react";
import { List, useListRef, type ListImperativeAPI } from "react-window";
import { EXPANDED_THINKING_BOX, RECOVERED_BOX } from "../layout/rows.ts";
import { rowCaches, select, useApp, visibleRows, type RecoveryState } from "../store/store.ts";
import type { Pane, RowProjection, ViewSummary } from "../worker/protocol.ts";
import { RecoveredPayload, RowBlock } from "./blocks.tsx";
import { ROLE_LABELS, formatCount } from "./format.ts";

interface RowProps {
  pane: Pane;
  view: ViewSummary;
  visible: Int32Array | null;
  recovered: Record<string, RecoveryState>;
  expandedThinking: Record<string, boolean>;
  selectedIndex: number;
  rowsVersion: number;
  /** Whether any payload is recovered or thinking expanded (rows may be taller than their base height). */
  hasOpenBoxes: boolean;
  onJump: (row: number) => void;
}

function realIndex(visible: Int32Array | null, position: number): number {
  return visible ? visible[position]! : position;
}

/** The position of `row` among the visible rows, or of the nearest one before it. */
export function positionOf(visible: Int32Array | null, row: number): number {
  if (!visible) return row;
  let low = 0;
  let high = visible.length - 1;
  let best = 0;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (visible[mid]! <= row) {
      best = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return best;
}

function extraHeight(row: RowProjection | undefined, pane: Pane, recovered: Record<string, RecoveryState>, expanded: Record<string, boolean>): number {
  if (!row) return 0;
  let extra = 0;
  row.blocks.forEach((block, i) => {
    if (block.recoveryId && recovered[block.recoveryId]) extra += RECOVERED_BOX;
    if (block.type === "thinking" && expanded[`${pane}:${row.index}:${i}`]) extra += EXPANDED_THINKING_BOX;
  });
  return extra;
}

/** Called for many rows on every scroll: the common case (nothing opened) is a typed-array read. */
function rowHeight(position: number, props: RowProps): number {
  const index = realIndex(props.visible, position);
  const base = props.view[props.pane].heights[index] ?? 40;
  if (!props.hasOpenBoxes) return base;
  return base + extraHeight(rowCaches[props.pane].peek(index), props.pane, props.recovered, props.expandedThinking);
}

function MessageRow({ index: position, style, ariaAttributes, ...props }: { index: number; style: CSSProperties; ariaAttributes: Record<string, unknown> } & RowProps): ReactElement {
  const index = realIndex(props.visible, position);
  const row = rowCaches[props.pane].get(index);
  const selected = props.selectedIndex === index;
  if (!row) {
    return (
      <div style={style} {...ariaAttributes} className="row row-loading" aria-busy="true">
        <div className="row-inner">Loading row {formatCount(index + 1)}…</div>
      </div>
    );
  }
  return (
    <div
      style={style}
      {...ariaAttributes}
      className={`row role-${row.role}${selected ? " selected" : ""}`}
      data-testid="message-row"
      data-message-id={row.id}
      data-row={index}
      aria-selected={selected}
      onClick={() => void select({ pane: props.pane, index }, false)}
    >
      <div className="row-inner">
        <RowHeader row={row} pane={props.pane} onJump={props.onJump} />
        {row.blocks.map((block, i) => (
          <div key={i}>
            <RowBlock block={block} rowKey={`${props.pane}:${index}`} blockIndex={i} onJump={props.onJump} />
            {block.recoveryId && props.recovered[block.recoveryId] ? (
              <RecoveredPayload recoveryId={block.recoveryId} state={props.recovered[block.recoveryId]!} height={RECOVERED_BOX - 8} />
            ) : null}
            {block.type === "thinking" && props.expandedThinking[`${props.pane}:${index}:${i}`] ? <ThinkingBox pane={props.pane} index={index} /> : null}
          </div>
        ))}
        {row.hiddenBlocks > 0 ? <div className="more-blocks">+{row.hiddenBlocks} more blocks (select the row to see all)</div> : null}
      </div>
    </div>
  );
}

function ThinkingBox({ pane, index }: { pane: Pane; index: number }) {
  const detail = useApp((state) => state.detail?.[pane]);
  const text = detail && detail.index === index ? detail.blocks.filter((b) => b.type === "thinking").map((b) => b.text).join("\n\n") : "Select the row to load the full thinking.";
  return (
    <pre className="thinking-box" style={{ height: EXPANDED_THINKING_BOX - 8 }}>
      {text}
    </pre>
  );
}

function RowHeader({ row, pane, onJump }: { row: RowProjection; pane: Pane; onJump: (row: number) => void }) {
  return (
    <div className="row-header">
      <span className={`role role-badge-${row.role}`}>{ROLE_LABELS[row.role] ?? row.role}</span>
      {row.tool ? (
        <span className="tool-info">
          {row.tool.name ?? "tool"}
          {row.tool.callId ? <span className="mono dim"> {row.tool.callId}</span> : null}
          {row.tool.isError === true ? <span className="badge badge-bad">error</span> : row.tool.isError === false ? <span className="badge badge-ok">ok</span> : null}
          {row.tool.exitCode !== undefined ? <span className="dim"> exit {row.tool.exitCode}</span> : null}
          {row.tool.callRow >= 0 ? (
            <button type="button" className="link-button" onClick={(e) => (e.stopPropagation(), onJump(row.tool!.callRow))} title="Jump to the call">
              call ↑
            </button>
          ) : null}
        </span>
      ) : null}
      {pane === "active" && row.differs ? <span className="badge badge-warn" title="Text differs from the source: select the row to see the diff">changed</span> : null}
      <span className="row-id mono dim" title={`message id ${row.id}`}>
        {row.id}
        {row.line !== undefined ? ` · line ${row.line}` : ""}
      </span>
    </div>
  );
}

export interface PaneHandle {
  api: ListImperativeAPI | null;
  visible: Int32Array | null;
}

export function PaneView({
  pane,
  view,
  title,
  onRegister,
  onLead,
  onFirstRow,
}: {
  pane: Pane;
  view: ViewSummary;
  title: string;
  onRegister: (pane: Pane, handle: PaneHandle) => void;
  onLead: (pane: Pane) => void;
  onFirstRow: (pane: Pane, row: number) => void;
}) {
  const listRef = useListRef(null);
  const client = useApp((state) => state.client);
  const filters = useApp((state) => state.filters);
  const recovered = useApp((state) => state.recovered);
  const expandedThinking = useApp((state) => state.expandedThinking);
  const selected = useApp((state) => state.selected);
  const rowsVersion = useApp((state) => state.rowsVersion);
  const scrollRequest = useApp((state) => state.scrollRequest);
  const visible = useMemo(() => visibleRows(view, pane, filters), [view, pane, filters]);
  const count = visible ? visible.length : view[pane].count;

  useEffect(() => {
    onRegister(pane, { api: listRef.current, visible });
  });

  useEffect(() => {
    if (!scrollRequest || scrollRequest.pane !== pane || !listRef.current || count === 0) return;
    listRef.current.scrollToRow({ index: Math.min(count - 1, positionOf(visible, scrollRequest.index)), align: "smart" });
  }, [scrollRequest, pane, visible, count, listRef]);

  const onJump = useCallback((row: number) => void select({ pane, index: row }), [pane]);
  const selectedIndex = selected?.pane === pane ? selected.index : selected ? view[selected.pane].aligned[selected.index] ?? -1 : -1;
  const hasOpenBoxes = Object.keys(recovered).length > 0 || Object.values(expandedThinking).some(Boolean);
  const rowProps: RowProps = { pane, view, visible, recovered, expandedThinking, selectedIndex, rowsVersion, hasOpenBoxes, onJump };

  return (
    <section className="pane" data-testid={`${pane}-pane`} aria-label={title} onScrollCapture={() => onLead(pane)} onWheel={() => onLead(pane)} onFocus={() => onLead(pane)}>
      <header className="pane-title">
        <h2>{title}</h2>
        <span className="dim">
          {formatCount(count)} {count === 1 ? "message" : "messages"}
          {visible ? ` shown of ${formatCount(view[pane].count)}` : ""}
        </span>
      </header>
      {pane === "active" && view.pending ? (
        <div className="empty" aria-busy="true">
          Compacting {formatCount(view.original.count)} messages: moving payloads out and hashing them…
        </div>
      ) : count === 0 ? (
        <div className="empty">{visible ? "No message matches the filters." : "This branch has no messages."}</div>
      ) : (
        <List
          className="pane-list"
          listRef={listRef}
          rowComponent={MessageRow}
          rowCount={count}
          rowHeight={rowHeight}
          rowProps={rowProps}
          overscanCount={4}
          onRowsRendered={(visibleRows, allRows) => {
            if (client) rowCaches[pane].ensure(client, realIndex(visible, allRows.startIndex), realIndex(visible, allRows.stopIndex));
            onFirstRow(pane, realIndex(visible, visibleRows.startIndex));
          }}
        />
      )}
    </section>
  );
}
