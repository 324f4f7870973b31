/**
 * One virtualized pane (react-window 2). Rows are fixed-height per content
 * (heights come from the worker), plus the boxes the user opened. Each row
 * reads its projection from the bounded page cache and re-renders alone when
 * its page arrives; a row not fetched yet shows a placeholder of the right
 * height, and a row just scrolled into view is an empty box until its
 * deferred render fills it.
 */
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useSyncExternalStore, type CSSProperties, type ReactElement } from "react";
import { List, useListRef, type ListImperativeAPI } from "react-window";
import { COMPACT_ROW, EXPANDED_BOX, RECOVERED_BOX, SUMMARY_BOX } from "../layout/rows.ts";
import type { RowCache } from "../store/rowCache.ts";
import { select, useApp, visibleRows, type RecoveryState, type SearchState, type Selection } from "../store/store.ts";
import type { Pane, RowProjection, ViewSummary } from "../worker/protocol.ts";
import { RecoveredPayload, RowBlock } from "./blocks.tsx";
import { ROLE_LABELS, formatCount } from "./format.ts";
import { ExpandedBlock } from "./panes/ExpandedBlock.tsx";
import { ShortId } from "./panes/ShortId.tsx";
import { CompactRowContent } from "./panes/CompactRow.tsx";
import { usePanelsOpen } from "./layout/BottomPanels.tsx";
import { CompactionDivider, RowAuditBadges } from "./audit/RowAudit.tsx";

/** What row heights depend on beyond the worker's base heights: the boxes the user opened. */
interface OpenBoxes {
  recovered: Record<string, RecoveryState>;
  expandedThinking: Record<string, boolean>;
  /** Whether any payload is recovered or thinking expanded (rows may be taller than their base height). */
  any: boolean;
  /** While boxes are open, a row's height depends on its projection being known: the cache's version. */
  cacheVersion: number;
}

/**
 * react-window rebuilds its whole table of row offsets whenever these props change (shallowly),
 * so they hold only what heights depend on; rows subscribe to their own content and selection.
 */
interface RowProps {
  /** The pane's row cache (the store's, passed down so rows need no store subscription of their own). */
  cache: RowCache;
  pane: Pane;
  view: ViewSummary;
  visible: Int32Array | null;
  boxes: OpenBoxes;
  onJump: (row: number) => void;
  /** A panel is open under the panes: one line per message. */
  compact: boolean;
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

/** The row of `pane` that is selected, or that the selection in the other pane aligns with; -1 for none. */
function selectedRowIn(selected: Selection | null, pane: Pane, view: ViewSummary): number {
  if (!selected) return -1;
  return selected.pane === pane ? selected.index : (view[selected.pane].aligned[selected.index] ?? -1);
}

/** Whether row `index` of `pane` is a find match ("match"), the one the find bar is on ("current"), or neither. */
function findMark(search: SearchState | null, pane: Pane, index: number): "match" | "current" | null {
  if (!search) return null;
  const hits = search[pane];
  if (!hits.includes(index)) return null;
  const stepping: Pane = search.active.length > 0 ? "active" : "original";
  return pane === stepping && search[stepping][search.cursor] === index ? "current" : "match";
}

/** A summary shorter than this fits the ordinary box (about ten lines of the box's monospace text). */
const SHORT_SUMMARY_CHARS = 1000;

/** Height of a block opened in place: the audit's summary (first block of its row in the after pane), when long, gets the taller box. */
export function expandedBoxHeight(view: ViewSummary, pane: Pane, index: number, blockIndex: number, chars: number): number {
  const auditSummary = pane === "active" && blockIndex === 0 && view.audit !== undefined && view.audit.summaryRow === index;
  return auditSummary && chars > SHORT_SUMMARY_CHARS ? SUMMARY_BOX : EXPANDED_BOX;
}

function extraHeight(row: RowProjection | undefined, pane: Pane, boxes: OpenBoxes, view: ViewSummary): number {
  if (!row) return 0;
  let extra = 0;
  row.blocks.forEach((block, i) => {
    if (block.recoveryId && boxes.recovered[block.recoveryId]) extra += RECOVERED_BOX;
    if (block.type !== "omitted" && boxes.expandedThinking[`${pane}:${row.index}:${i}`]) extra += expandedBoxHeight(view, pane, row.index, i, block.chars);
  });
  return extra;
}

/** Called for many rows on every scroll: the common case (nothing opened) is a typed-array read. */
function rowHeight(position: number, props: RowProps): number {
  if (props.compact) return COMPACT_ROW;
  const index = realIndex(props.visible, position);
  const base = props.view[props.pane].heights[index] ?? 40;
  if (!props.boxes.any) return base;
  return base + extraHeight(props.cache.peek(index), props.pane, props.boxes, props.view);
}

function MessageRow({
  index: position,
  style,
  ariaAttributes,
  pane,
  view,
  visible,
  onJump,
  cache,
  compact,
}: { index: number; style: CSSProperties; ariaAttributes: Record<string, unknown> } & RowProps): ReactElement {
  const index = realIndex(visible, position);
  const cached = useSyncExternalStore(cache.subscribe, () => cache.peek(index));
  // A row scrolled into view mounts as an empty box (null) and gets its content in a deferred,
  // time-sliced render: scrolling fast never waits for a screenful of rows to be built at once.
  const row = useDeferredValue<RowProjection | null | undefined>(cached, null);
  const selected = useApp((state) => selectedRowIn(state.selected, pane, view) === index);
  const found = useApp((state) => findMark(state.search, pane, index));
  if (row === null) return <div style={style} {...ariaAttributes} className="row row-pending" />;
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
      className={`row role-${row.role}${selected ? " selected" : ""}${found ? ` find-${found}` : ""}${compact ? " compact" : ""}${row.dropped ? " dropped" : ""}`}
      data-testid="message-row"
      data-message-id={row.id}
      data-row={index}
      data-dropped={row.dropped ? "true" : undefined}
      aria-selected={selected}
      onClick={() => void select({ pane, index }, false)}
    >
      {/* One-line rows have one fixed height: there a compaction is a chip in the line, not a divider above it. */}
      {compact ? null : row.dividers?.map((divider) => <CompactionDivider key={divider.index} divider={divider} />)}
      {compact ? (
        <CompactRowContent row={row} />
      ) : (
        <div className="row-inner">
          <RowHeader row={row} pane={pane} onJump={onJump} />
          {row.blocks.map((block, i) => (
            <div key={i}>
              <RowBlock block={block} rowKey={`${pane}:${index}`} blockIndex={i} onJump={onJump} />
              {block.recoveryId ? <RecoveredBox recoveryId={block.recoveryId} /> : null}
              {block.type !== "omitted" ? (
                <ExpandedBlock pane={pane} index={index} blockIndex={i} expandKey={`${pane}:${index}:${i}`} height={expandedBoxHeight(view, pane, index, i, block.chars)} />
              ) : null}
            </div>
          ))}
          {row.hiddenBlocks > 0 ? <div className="more-blocks">… +{row.hiddenBlocks} more blocks (select the row to see all)</div> : null}
        </div>
      )}
    </div>
  );
}

function RecoveredBox({ recoveryId }: { recoveryId: string }) {
  const state = useApp((s) => s.recovered[recoveryId]);
  return state ? <RecoveredPayload recoveryId={recoveryId} state={state} height={RECOVERED_BOX - 8} /> : null;
}

function RowHeader({ row, pane, onJump }: { row: RowProjection; pane: Pane; onJump: (row: number) => void }) {
  return (
    <div className="row-header">
      <span className={`role role-badge-${row.role}`}>{ROLE_LABELS[row.role] ?? row.role}</span>
      <RowAuditBadges row={row} pane={pane} />
      {row.tool ? (
        <span className="tool-info">
          {row.tool.name ?? "tool"}
          {row.tool.callId ? <ShortId id={row.tool.callId} what="tool call id" /> : null}
          {row.tool.isError === true ? <span className="badge badge-bad">error</span> : row.tool.isError === false ? <span className="badge badge-ok">ok</span> : null}
          {row.tool.exitCode !== undefined ? <span className="dim"> exit {row.tool.exitCode}</span> : null}
          {row.tool.callRow >= 0 ? (
            <button type="button" className="link-button" onClick={(e) => (e.stopPropagation(), onJump(row.tool!.callRow))} title="Jump to the call">
              call ↑
            </button>
          ) : null}
        </span>
      ) : null}
      {pane === "active" && row.differs ? (
        <span className="badge badge-warn" title="Text differs from the source: select the row to see the diff">
          changed
        </span>
      ) : null}
      {row.tokens !== undefined ? (
        <span className="row-tokens dim" data-testid="row-tokens" title="Tokens of this message as the model reads it (o200k; Claude's own tokenizer differs by a few percent)">
          {formatCount(row.tokens)} tok
        </span>
      ) : null}
      {/* The line first: in a narrow pane the id is what gets cut. */}
      <span className="row-id">
        {row.line !== undefined ? <span className="dim">line {row.line} · </span> : null}
        <ShortId id={row.id} what="message id" />
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
  const scrollRequest = useApp((state) => state.scrollRequest);
  const visible = useMemo(() => visibleRows(view, pane, filters), [view, pane, filters]);
  const count = visible ? visible.length : view[pane].count;
  const revision = useApp((state) => state.sessionRevision);
  /** Whether the reader had scrolled to the last row (set by their scrolling only: a growing file fires no scroll). */
  const atEnd = useRef(false);

  useEffect(() => {
    onRegister(pane, { api: listRef.current, visible });
  });

  // A followed file grew: a reader at the end follows the new rows; anyone else stays where they were.
  useEffect(() => {
    if (revision > 0 && atEnd.current && listRef.current && count > 0) listRef.current.scrollToRow({ index: count - 1, align: "end", behavior: "instant" });
    // Only when the session grew.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [revision]);

  useEffect(() => {
    if (!scrollRequest || scrollRequest.pane !== pane || !listRef.current || count === 0) return;
    listRef.current.scrollToRow({ index: Math.min(count - 1, positionOf(visible, scrollRequest.index)), align: "smart" });
  }, [scrollRequest, pane, visible, count, listRef]);

  const onJump = useCallback((row: number) => void select({ pane, index: row }), [pane]);
  const anyOpen = Object.keys(recovered).length > 0 || Object.values(expandedThinking).some(Boolean);
  const cache = useApp((s) => s.rowCaches[pane]);
  const cacheVersion = useSyncExternalStore(cache.subscribe, () => (anyOpen ? cache.version : 0));
  const boxes = useMemo<OpenBoxes>(() => ({ recovered, expandedThinking, any: anyOpen, cacheVersion }), [recovered, expandedThinking, anyOpen, cacheVersion]);
  const compact = usePanelsOpen();
  const rowProps = useMemo<RowProps>(() => ({ pane, view, visible, boxes, onJump, cache, compact }), [pane, view, visible, boxes, onJump, cache, compact]);
  // Switching between full and one-line rows moves every offset: keep the selected row in view.
  useEffect(() => {
    const { selected: current, view: shown } = useApp.getState();
    if (!current || !shown || !listRef.current || count === 0) return;
    const row = selectedRowIn(current, pane, shown);
    if (row >= 0) listRef.current.scrollToRow({ index: Math.min(count - 1, positionOf(visible, row)), align: "center", behavior: "instant" });
    // Only on the switch itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [compact]);

  return (
    <section
      className="pane"
      data-testid={`${pane}-pane`}
      aria-label={title}
      onScrollCapture={(event) => {
        onLead(pane);
        const list = event.target as HTMLElement;
        if (list.classList?.contains("pane-list")) atEnd.current = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
      }}
      onWheel={() => onLead(pane)}
      onFocus={() => onLead(pane)}
    >
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
            if (client) cache.ensure(client, realIndex(visible, allRows.startIndex), realIndex(visible, allRows.stopIndex));
            onFirstRow(pane, realIndex(visible, visibleRows.startIndex));
          }}
        />
      )}
    </section>
  );
}
