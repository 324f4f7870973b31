/** The library screen: the folder's indexing progress, the per-agent summary, the filters, the table and the skipped files. */
import { kindLabel } from "../audit/labels.ts";
import { useEffect, useMemo, useState } from "react";
import { summarizeByAgent } from "../../../core/library/summary.ts";
import { cancelIndexing, closeLibrary, forgetFolder, setLibraryFilter, showInspector, useLibrary } from "../../store/library.ts";
import { useApp } from "../../store/store.ts";
import { formatBytes, formatSeconds } from "../format.ts";
import { LibraryTable } from "./LibraryTable.tsx";
import { libraryReportHtml } from "../../../core/report/library-html.ts";
import { download } from "../download.ts";
import { probeName } from "../../../core/audit/fact-ledger.ts";

function percent(share: number | null): string {
  return share === null ? "—" : `${Math.round(share * 100)}%`;
}

/** The estimate of the time left waits for this much indexing time and this share of the bytes to index. */
const ESTIMATE_AFTER_MS = 3000;
const ESTIMATE_AFTER_SHARE = 0.02;

function Progress() {
  const progress = useLibrary((s) => s.progress);
  const [now, setNow] = useState(() => performance.now());
  const running = progress !== null && progress.finishedAt === null;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(performance.now()), 500);
    return () => clearInterval(timer);
  }, [running]);
  if (!progress) return null;
  // A new run starts after the last tick of the clock: never a negative time.
  const elapsed = Math.max(0, (progress.finishedAt ?? now) - progress.startedAt);
  // The estimate: the bytes still to read at the rate so far (cached sessions cost nothing, so they are left out of the rate).
  const rate = elapsed > 0 ? (progress.bytesDone - progress.bytesCached) / elapsed : 0;
  // Too early, the rate is that of the first large sessions and their workers' start: no estimate before it means something.
  const settled = elapsed >= ESTIMATE_AFTER_MS && progress.bytesDone - progress.bytesCached >= ESTIMATE_AFTER_SHARE * (progress.bytesTotal - progress.bytesCached);
  const left = rate > 0 && settled ? (progress.bytesTotal - progress.bytesDone) / rate : null;
  if (progress.listing) {
    return (
      <div className="library-progress" data-testid="library-progress" role="status" aria-live="polite">
        <progress max={Math.max(1, progress.listing.total)} value={progress.listing.read} aria-label="Files listed" />
        <span>
          {progress.total} sessions listed · reading the sizes and dates of their files from the browser: {progress.listing.read} of {progress.listing.total} ·{" "}
          {formatSeconds(elapsed)}
        </span>
        <button type="button" className="small" onClick={cancelIndexing} data-testid="library-cancel">
          Cancel
        </button>
      </div>
    );
  }
  return (
    <div className="library-progress" data-testid="library-progress" role="status" aria-live="polite">
      <progress max={Math.max(1, progress.bytesTotal)} value={progress.bytesDone} aria-label="Bytes indexed" />
      <span>
        {progress.done} of {progress.total} sessions · {formatBytes(progress.bytesDone)} of {formatBytes(progress.bytesTotal)} · {formatSeconds(elapsed)}
        {progress.cached ? ` · ${progress.cached} unchanged, from the cache` : ""}
        {progress.reused ? ` · ${progress.reused} compaction${progress.reused === 1 ? "" : "s"} of changed sessions taken from their last audit` : ""}
        {progress.tailsRead ? ` · ${progress.tailsRead} grown session${progress.tailsRead === 1 ? "" : "s"} read only from where the last read ended` : ""}
        {/* So the tables below, which hold only the sessions that could be read, add up to what this line counts. */}
        {progress.unreadable ? ` · ${progress.unreadable} could not be read (listed under skipped files, not in the tables)` : ""}
        {running && left !== null && progress.done > progress.cached ? ` · about ${formatSeconds(left)} left (estimate)` : ""}
        {progress.cancelled ? " · cancelled" : progress.finishedAt !== null ? " · done" : ""}
      </span>
      {running ? (
        <button type="button" className="small" onClick={cancelIndexing} data-testid="library-cancel">
          Cancel
        </button>
      ) : null}
    </div>
  );
}

function AgentSummary() {
  const sessions = useLibrary((s) => s.sessions);
  const pending = useLibrary((s) => s.pending);
  const compactions = useLibrary((s) => s.compactions);
  const summary = useMemo(
    () =>
      summarizeByAgent(
        sessions.filter((row) => !pending[row.path]),
        Object.values(compactions).flat(),
      ),
    [sessions, pending, compactions],
  );
  if (summary.length === 0) return null;
  return (
    <table className="library-summary" data-testid="library-summary">
      <caption>
        By agent: facts present in context after the agent's own compactions vs transparent compaction at the same moments (literal reader, median over compactions)
      </caption>
      <thead>
        <tr>
          <th scope="col">Agent</th>
          <th scope="col">Sessions</th>
          <th scope="col">Compactions</th>
          <th scope="col">Median kept: agent's compaction</th>
          <th scope="col">Median kept: transparent</th>
          <th scope="col">Facts dropped</th>
        </tr>
      </thead>
      <tbody>
        {summary.map((row) => (
          <tr key={row.agent}>
            <th scope="row">{row.agent}</th>
            <td>{row.sessions}</td>
            <td>{row.compactions}</td>
            <td>{percent(row.medianKeptRecorded)}</td>
            <td>{percent(row.medianKeptTransparent)}</td>
            <td className={row.factsDropped ? "bad" : ""}>{row.factsDropped}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Filters() {
  const sessions = useLibrary((s) => s.sessions);
  const filter = useLibrary((s) => s.filter);
  const agents = useMemo(() => [...new Set(sessions.map((row) => row.agent))].sort(), [sessions]);
  return (
    <div className="library-filters">
      <label className="field">
        <span>Agent</span>
        <select data-testid="library-agent-filter" value={filter.agent} onChange={(e) => setLibraryFilter({ agent: e.target.value })}>
          <option value="">All agents</option>
          {agents.map((agent) => (
            <option key={agent} value={agent}>
              {agent}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Filter</span>
        <input type="search" data-testid="library-text-filter" placeholder="path or project" value={filter.text} onChange={(e) => setLibraryFilter({ text: e.target.value })} />
      </label>
    </div>
  );
}

function Skipped() {
  const skipped = useLibrary((s) => s.skipped);
  if (skipped.length === 0) return null;
  return (
    <details className="library-skipped" data-testid="library-skipped">
      <summary>
        {skipped.length} {skipped.length === 1 ? "file" : "files"} skipped (not a session, or unreadable)
      </summary>
      <ul>
        {skipped.map((file) => (
          <li key={file.path}>
            <code>{file.path}</code>: {file.reason}
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * In the inspector, on a session opened from a compaction row of the library:
 * that compaction's audit figures and the facts it dropped (derived rows the
 * library already holds; nothing is read again).
 */
export function LibraryCompactionBanner() {
  const pendingCompaction = useLibrary((s) => s.pendingCompaction);
  const openedPath = useLibrary((s) => s.openedPath);
  const compactions = useLibrary((s) => s.compactions);
  const loading = useApp((s) => s.loading);
  if (!pendingCompaction || pendingCompaction.path !== openedPath || loading) return null;
  const row = compactions[pendingCompaction.path]?.find((c) => c.index === pendingCompaction.index);
  if (!row) return null;
  return (
    <details className="banner info library-compaction" data-testid="library-compaction-banner">
      <summary>
        From the library: compaction {row.index} ({kindLabel(row.compactionKind)}) — facts present in context after it {row.facts.kept}/{row.facts.asked}, transparent compaction at
        the same moment {row.facts.transparent}/{row.facts.asked}
        {row.dropped.facts.length ? ` · ${row.dropped.facts.length} fell out here (show)` : ""}
      </summary>
      {row.dropped.facts.length ? (
        <ul>
          {row.dropped.facts.map((fact, i) => (
            <li key={i}>
              <span className="dim">{probeName(fact.probe)}:</span> {fact.missingItems.length > 1 ? fact.missingItems.join("; ") : fact.fact}
            </li>
          ))}
        </ul>
      ) : null}
    </details>
  );
}

/**
 * The library's HTML report (core/report/library-html.ts, the page `audit
 * <folder> --html` writes): figures only unless the fact texts are asked for.
 */
function ReportButton() {
  const [withFacts, setWithFacts] = useState(false);
  const running = useLibrary((s) => s.progress !== null && s.progress.finishedAt === null);
  const save = () => {
    const { folder, sessions, pending, compactions, skipped } = useLibrary.getState();
    const name = folder ?? "library";
    // A picked folder's paths start with its own name; the page names files inside it, as `audit <folder>` does.
    const inside = (path: string) => (path.startsWith(`${name}/`) ? path.slice(name.length + 1) : path);
    const indexed = sessions.filter((row) => !pending[row.path]);
    const page = libraryReportHtml({
      folder: name,
      sessions: indexed.map((row) => ({ ...row, path: inside(row.path) })),
      compactions: indexed.flatMap((row) => (compactions[row.path] ?? []).map((compaction) => ({ ...compaction, path: inside(compaction.path) }))),
      skipped: skipped.map((file) => ({ kind: "skipped" as const, path: inside(file.path), reason: file.reason })),
      withFacts,
    });
    // Ending in a line break as the CLI's file does: the same bytes either way.
    download({ blob: new Blob([page, "\n"], { type: "text/html" }), name: `${name}.library-report.html` });
  };
  return (
    <span className="library-report">
      <button
        type="button"
        className="small"
        data-testid="library-report"
        onClick={save}
        disabled={running}
        title={running ? "Available when the indexing is done" : "Download the library as one HTML page: the per-agent summary and every session and compaction"}
      >
        Download report
      </button>
      <label className="small" title="Put the text of each dropped fact (paths, commands, a user's words) in the page; off, it holds figures only">
        <input type="checkbox" checked={withFacts} onChange={(event) => setWithFacts(event.target.checked)} data-testid="library-report-facts" /> with fact texts
      </label>
    </span>
  );
}

export function LibraryView() {
  const folder = useLibrary((s) => s.folder);
  const openedPath = useLibrary((s) => s.openedPath);
  const session = useApp((s) => s.session);
  return (
    <main className="library" data-testid="library-view" aria-label={`Library: ${folder}`}>
      <header className="library-head">
        <h2>
          Library · <span className="session-name">{folder}</span>
        </h2>
        <span className="dim">Figures derived in this browser; the cache keeps only them and the fact texts, never session text.</span>
        <span className="spacer" />
        {session && openedPath ? (
          <button type="button" className="small" onClick={showInspector}>
            Back to {session.name}
          </button>
        ) : null}
        <ReportButton />
        <button type="button" className="small" data-testid="library-forget" onClick={() => void forgetFolder()} title="Delete this folder's cached figures from this browser">
          Forget this folder
        </button>
        <button type="button" className="small" onClick={closeLibrary}>
          Close library
        </button>
      </header>
      <Progress />
      <AgentSummary />
      <Filters />
      <LibraryTable />
      <p className="library-legend dim" data-testid="library-legend">
        Context tokens: the file's own usage record of its last turn; marked ~ where the file records none, and the figure is counted from the session's text instead (the tokenizer
        on hover). Worst: facts present in context after the agent's worst compaction, of those asked (literal reader), with transparent compaction's count of the same facts in
        brackets.
      </p>
      <Skipped />
    </main>
  );
}
