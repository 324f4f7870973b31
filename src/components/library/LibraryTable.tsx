/** The library's table: one row per session, expandable to one row per compaction; virtualized, sortable, filterable. */
import { kindLabel } from "../audit/labels.ts";
import { type CSSProperties, type KeyboardEvent } from "react";
import { List, type RowComponentProps } from "react-window";
import type { LibraryCompactionRow, LibrarySessionRow } from "../../../core/library/rows.ts";
import { byFactsDropped, compareText } from "../../../core/library/summary.ts";
import { openFromLibrary, setLibrarySort, toggleLibraryRow, useLibrary, type LibraryState, type SortColumn } from "../../store/library.ts";
import { formatBytes, formatCount } from "../format.ts";

const ROW_HEIGHT = 34;

const COLUMNS: { column: SortColumn; label: string; title: string }[] = [
  { column: "agent", label: "Agent", title: "The agent whose folder layout the file sits in (else the format its content was read as)" },
  { column: "project", label: "Project", title: "The working directory the session recorded (else the project folder the agent filed it under), and the file" },
  {
    column: "date",
    label: "Date",
    title: "The earliest time the session's records state (else the file's modification time, marked *); hover a date for the last record, the duration and the model",
  },
  { column: "bytes", label: "Size", title: "Bytes of the session's files" },
  { column: "messages", label: "Messages", title: "Messages on the session's current branch" },
  {
    column: "tokens",
    label: "Context tokens",
    title: "Tokens of the context the agent sends now, after its own compactions: the file's own usage record of its last turn, else an estimate (marked ~)",
  },
  { column: "compactions", label: "Compactions", title: "Compactions the file records" },
  {
    column: "worst",
    label: "Worst: kept/asked",
    title:
      "Facts present in context after the agent's worst compaction, of those asked (literal reader); in brackets, how many of the same facts transparent compaction at the same moment keeps",
  },
  { column: "factsDropped", label: "Facts dropped", title: "Facts the agent's compactions dropped, summed" },
];

function keptShare(row: LibrarySessionRow): number {
  const worst = row.worstCompaction;
  return worst && worst.asked > 0 ? worst.recorded / worst.asked : 1;
}

function compare(column: SortColumn, a: LibrarySessionRow, b: LibrarySessionRow): number {
  switch (column) {
    case "agent":
      return compareText(a.agent, b.agent);
    case "project":
      return compareText(a.project ?? "", b.project ?? "") || compareText(a.path, b.path);
    case "date":
      return compareText(a.date, b.date);
    case "worst":
      // Descending = worst first: the lowest share of facts kept.
      return keptShare(b) - keptShare(a);
    case "factsDropped":
      return -byFactsDropped(a, b);
    default:
      return a[column] - b[column];
  }
}

export type DisplayRow = { kind: "session"; row: LibrarySessionRow } | { kind: "compaction"; row: LibraryCompactionRow };

export function displayRows(state: Pick<LibraryState, "sessions" | "pending" | "compactions" | "sort" | "filter" | "expanded">): { rows: DisplayRow[]; shown: number } {
  const text = state.filter.text.trim().toLowerCase();
  const sessions = state.sessions.filter(
    (row) => (!state.filter.agent || row.agent === state.filter.agent) && (!text || row.path.toLowerCase().includes(text) || (row.project ?? "").toLowerCase().includes(text)),
  );
  const sign = state.sort.descending ? -1 : 1;
  // Sessions still being indexed go last, whatever the sort: their figures are not known yet.
  const waiting = (row: LibrarySessionRow) => (state.pending[row.path] ? 1 : 0);
  sessions.sort((a, b) => waiting(a) - waiting(b) || sign * compare(state.sort.column, a, b) || byFactsDropped(a, b));
  const rows: DisplayRow[] = [];
  for (const row of sessions) {
    rows.push({ kind: "session", row });
    if (state.expanded[row.path]) for (const compaction of state.compactions[row.path] ?? []) rows.push({ kind: "compaction", row: compaction });
  }
  return { rows, shown: sessions.length };
}

function score(facts: { asked: number; recorded: number; transparent: number } | null): string {
  if (!facts) return "—";
  if (facts.asked === 0) return "no facts asked";
  return `${facts.recorded}/${facts.asked} (transp. ${facts.transparent})`;
}

function activate(event: KeyboardEvent, run: () => void): void {
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    run();
  }
}

/**
 * The list's row props hold nothing that changes while a folder is indexed:
 * react-window rebuilds its table of row offsets (and forces a layout) each
 * time they change, and rows arrive every few tens of ms. Each row reads its
 * own display row from the store instead, so a batch of new rows re-renders
 * the rows that changed and nothing else.
 */
type RowProps = Record<string, never>;
const ROW_PROPS: RowProps = {};

type DisplayState = Pick<LibraryState, "sessions" | "pending" | "compactions" | "sort" | "filter" | "expanded">;
let lastDisplay: { state: DisplayState; rows: ReturnType<typeof displayRows> } | null = null;

/** displayRows of the store's current state, made once per state however many rows ask. */
function currentDisplayRows(state: DisplayState): ReturnType<typeof displayRows> {
  const last = lastDisplay;
  if (last && (["sessions", "pending", "compactions", "sort", "filter", "expanded"] as const).every((key) => last.state[key] === state[key])) return last.rows;
  const rows = displayRows(state);
  lastDisplay = {
    state: { sessions: state.sessions, pending: state.pending, compactions: state.compactions, sort: state.sort, filter: state.filter, expanded: state.expanded },
    rows,
  };
  return rows;
}

function PendingRow({ row, style }: { row: LibrarySessionRow; style: CSSProperties }) {
  const name = row.path.slice(row.path.lastIndexOf("/") + 1);
  // Listed from its path alone: the size is not known yet either.
  const sized = useLibrary((state) => state.progress?.listing == null);
  return (
    <div
      style={style}
      className="library-row pending"
      role="row"
      data-testid="library-row"
      data-path={row.path}
      data-pending="true"
      aria-busy="true"
      title={`${row.path}\nBeing indexed…`}
    >
      <span className="cell">
        <span className="expander">·</span>
        {row.agent === "unknown" ? "…" : row.agent}
      </span>
      <span className="cell path">
        <span>{row.project ?? "—"}</span> <span className="dim">{name}</span>
      </span>
      <span className="cell dim">…</span>
      <span className={sized ? "cell num" : "cell num dim"}>{sized ? formatBytes(row.bytes) : "…"}</span>
      <span className="cell num dim">…</span>
      <span className="cell num dim">…</span>
      <span className="cell num dim">…</span>
      <span className="cell dim">{sized ? "indexing…" : "listed"}</span>
      <span className="cell num dim">…</span>
    </div>
  );
}

function Row({ index, style }: RowComponentProps<RowProps>) {
  const item = useLibrary((state) => currentDisplayRows(state).rows[index]);
  const path = item?.row.path ?? "";
  const isPending = useLibrary((state) => !!state.pending[path]);
  const isExpanded = useLibrary((state) => !!state.expanded[path]);
  if (!item) return <div style={style} />;
  if (item.kind === "compaction") {
    const c = item.row;
    const open = () => openFromLibrary(c.path, c.index);
    return (
      <div
        style={style}
        className="library-row compaction"
        role="row"
        tabIndex={0}
        data-testid="library-compaction-row"
        data-compaction-index={c.index}
        onClick={open}
        onKeyDown={(e) => activate(e, open)}
        title="Open this session in the inspector on this compaction"
      >
        <span className="cell wide">
          ↳ Compaction {c.index} · {kindLabel(c.compactionKind)}
          {c.trigger ? ` (${c.trigger})` : ""}{" "}
          <span className="dim">
            · dropped {c.dropped.humanMessages.length} human messages, {c.dropped.toolOutputs.length} tool outputs
          </span>
        </span>
        <span className="cell num">
          {c.messagesBefore}→{c.messagesAfter}
        </span>
        <span className="cell num">{c.tokensBefore !== null && c.tokensAfter !== null ? `${formatCount(c.tokensBefore)}→${formatCount(c.tokensAfter)}` : ""}</span>
        <span className="cell" />
        <span className="cell">{score(c.facts)}</span>
        <span className={`cell num${c.dropped.facts.length ? " bad" : ""}`}>{c.dropped.facts.length}</span>
      </div>
    );
  }
  const r = item.row;
  if (isPending) return <PendingRow row={r} style={style} />;
  // A session of a database: its title first (what tells two rows of one database apart when the cell is
  // cut), then the database's name; its id is in the row's path and its tooltip.
  const name = r.database ? `${r.database.title} · ${r.database.path.slice(r.database.path.lastIndexOf("/") + 1)}` : r.path.slice(r.path.lastIndexOf("/") + 1);
  const open = () => openFromLibrary(r.path, r.worstCompaction?.index);
  return (
    <div
      style={style}
      className="library-row"
      role="row"
      tabIndex={0}
      data-testid="library-row"
      data-path={r.path}
      onClick={open}
      onKeyDown={(e) => activate(e, open)}
      title={`${r.path}\nOpen in the inspector${r.worstCompaction ? " on its worst compaction" : ""}`}
    >
      <span className="cell">
        <button
          type="button"
          className="expander"
          disabled={r.compactions === 0}
          aria-expanded={isExpanded}
          aria-label={`${isExpanded ? "Hide" : "Show"} the compactions of ${name}`}
          onClick={(e) => {
            e.stopPropagation();
            toggleLibraryRow(r.path);
          }}
        >
          {r.compactions === 0 ? "·" : isExpanded ? "▾" : "▸"}
        </button>
        {r.agent}
      </span>
      <span className="cell path">
        <span>{r.project ?? "—"}</span> <span className="dim">{name}</span>
      </span>
      <span className="cell" title={dateTitle(r)}>
        {r.date.slice(0, 10)}
        {r.dateFrom === "records" ? "" : "*"}
      </span>
      <span className="cell num" title={r.database ? "the size of the whole database (and its -wal), which holds this session among others" : undefined}>
        {formatBytes(r.bytes)}
      </span>
      <span className="cell num">{formatCount(r.messages)}</span>
      <span className="cell num" title={r.tokenizer}>
        {/* The file's own figure is shown as is; an estimate says so. */}
        {r.tokenizer.includes("file's own") ? "" : "~"}
        {formatCount(r.tokens)}
      </span>
      <span className="cell num">{r.compactions}</span>
      <span
        className="cell"
        title="Facts present in context after the agent's worst compaction / facts asked; transparent compaction at the same moment in brackets (literal reader)"
      >
        {score(r.worstCompaction)}
      </span>
      <span className={`cell num${r.factsDropped ? " bad" : ""}`}>{r.factsDropped}</span>
    </div>
  );
}

/** "first record …, last record … (2 h 5 min), model …": what the date cell's records say, on hover. */
function dateTitle(r: LibrarySessionRow): string {
  if (r.dateFrom !== "records") return "No record states a time: this is the file's modification time";
  const parts = [`first record ${r.date.replace("T", " ").slice(0, 16)} UTC`];
  if (r.lastDate) parts.push(`last record ${r.lastDate.replace("T", " ").slice(0, 16)} UTC${r.durationMs !== null ? ` (${formatDuration(r.durationMs)})` : ""}`);
  if (r.model) parts.push(`model ${r.model}`);
  return parts.join(", ");
}

function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h ${minutes % 60} min` : `${Math.round(hours / 24)} days`;
}

export function LibraryTable() {
  const sessions = useLibrary((s) => s.sessions);
  const compactions = useLibrary((s) => s.compactions);
  const sort = useLibrary((s) => s.sort);
  const filter = useLibrary((s) => s.filter);
  const expanded = useLibrary((s) => s.expanded);
  const pending = useLibrary((s) => s.pending);
  const { rows } = currentDisplayRows({ sessions, pending, compactions, sort, filter, expanded });

  return (
    <div className="library-table" data-testid="library-table" role="table" aria-label="Sessions of the library" aria-rowcount={rows.length}>
      <div className="library-row head" role="row">
        {COLUMNS.map(({ column, label, title }) => (
          <button
            key={column}
            type="button"
            role="columnheader"
            className={`cell sort${sort.column === column ? " sorted" : ""}`}
            title={title}
            data-testid={`library-sort-${column}`}
            aria-sort={sort.column === column ? (sort.descending ? "descending" : "ascending") : "none"}
            onClick={() => setLibrarySort(column)}
          >
            {label}
            {sort.column === column ? (sort.descending ? " ↓" : " ↑") : ""}
          </button>
        ))}
      </div>
      {rows.length === 0 ? (
        <div className="empty">{sessions.length === 0 ? "No session indexed yet." : "No session matches the filter."}</div>
      ) : (
        <List className="library-list" rowComponent={Row} rowCount={rows.length} rowHeight={ROW_HEIGHT} rowProps={ROW_PROPS} overscanCount={8} />
      )}
    </div>
  );
}
