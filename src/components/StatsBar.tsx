/**
 * Original vs active size in tokens of the model's view, what moved out, the
 * file's own usage at its last turn beside the model's view of it, and the
 * composition. Three short lines: the explanations open on demand.
 */
import { useEffect } from "react";
import { countViewTokens, figuresFor, useApp, useTokens } from "../store/store.ts";
import { formatCount, formatSeconds } from "./format.ts";
import { viewAgainstFile } from "../../core/audit/view-vs-file.ts";
import { CompositionBar } from "./stats/CompositionBar.tsx";
import { RecordedUsage, TokenCount } from "./stats/TokenStats.tsx";
import { GLOSSARY } from "./glossary.ts";

/** The file's own figure beside an audited side's count; where the count exceeds it, why (core/audit/view-vs-file.ts). */
function FileFigure({ kind, view, file, exact }: { kind: string; view: number; file: number | null; exact: boolean }) {
  const against = viewAgainstFile(kind, view, file);
  if (against.file === null) return null;
  return (
    <span className="dim file-figure" data-testid="stats-file-figure">
      {" "}
      (the file: {formatCount(against.file)}
      {exact && against.note ? (
        <>
          ;{" "}
          <abbr className="warn-text" data-testid="view-exceeds-file" title={against.note}>
            counted {Math.round(against.excess! * 100)}% above it, why?
          </abbr>
        </>
      ) : null}
      )
    </span>
  );
}

export function StatsBar() {
  const view = useApp((s) => s.view);
  const session = useApp((s) => s.session);
  const tokens = useTokens();
  const viewId = view && !view.pending ? view.id : null;
  useEffect(() => {
    if (viewId !== null) void countViewTokens(viewId);
  }, [viewId]);
  if (!view || !session) return null;
  if (view.pending)
    return (
      <div className="stats" aria-busy="true">
        Compacting… the statistics appear when the active context is ready.
      </div>
    );
  const { stats } = view;
  const figures = figuresFor(view, tokens);
  const ratio = figures.original > 0 ? figures.active / figures.original : 0;
  // Auditing compaction #N the panes are the agent's own contexts either side of it: the figures say so,
  // and a strategy's own counts (moved out, prose kept, metadata) have no meaning there.
  const audit = view.audit;
  const names = audit ? { original: `Before #${audit.index}`, active: `After #${audit.index}` } : { original: "Original", active: "Active" };
  // The session's own line: in an audit it takes the first row's third place (the message counts are the
  // compaction's, on the audit's line), so the panes start higher.
  const sessionFigure = (
    <div className="stats-session">
      <dt>Session</dt>
      <dd
        title={`read and decoded in ${formatSeconds(session.timings.readMs)}, session built in ${formatSeconds(session.timings.parseMs)}${view.pending ? "" : `, compacted in ${formatSeconds(view.compactMs)}`} (measured in the worker on this machine)`}
      >
        {session.format}
        {session.formatVersion ? (
          <span title="what the file records of its version: its format's (Pi), the agent's that wrote it (Claude Code, Codex), or its form (Gemini CLI)">
            {" "}
            {/^\d/.test(session.formatVersion) ? `v${session.formatVersion}` : session.formatVersion}
          </span>
        ) : null}{" "}
        · {formatCount(session.toolCalls)} tool calls
        {view.round > 0 ? <abbr title={GLOSSARY.round}> · round {view.round + 1}</abbr> : null}
      </dd>
    </div>
  );
  return (
    <div className="stats" aria-label="Compaction statistics" data-tokens-exact={figures.exact ? "true" : "false"}>
      <dl className="stat-list">
        <div>
          <dt>{names.original}</dt>
          <dd title={`${formatCount(stats.originalChars)} characters`}>
            <TokenCount tokens={figures.original} estimated={figures.estimated.original} testId="stats-original-tokens" />
            {audit ? <FileFigure kind={audit.kind} view={figures.original} file={audit.tokensBefore} exact={figures.exact} /> : null}
            <span className="dim chars-figure">
              {" "}
              · <span data-testid="stats-original-chars">{formatCount(stats.originalChars)}</span> chars
            </span>
          </dd>
        </div>
        <div>
          <dt>{names.active}</dt>
          <dd title={`${formatCount(stats.activeChars)} characters`}>
            <TokenCount tokens={figures.active} estimated={figures.estimated.active} testId="stats-active-tokens" />{" "}
            {audit ? <FileFigure kind={audit.kind} view={figures.active} file={audit.tokensAfter} exact={figures.exact} /> : null}{" "}
            <span
              title={
                ratio > 1
                  ? "Larger than the original: what replaced the moved-out content (markers, a brief, a summary slot) costs more tokens than that content did."
                  : "Share of the original branch's tokens."
              }
            >
              ({(ratio * 100).toFixed(1)}%{ratio > 1 ? ": what replaced the moved-out content is larger" : ""})
            </span>
            <span className="dim chars-figure">
              {" "}
              · <span data-testid="stats-active-chars">{formatCount(stats.activeChars)}</span> chars
            </span>
          </dd>
        </div>
        {audit ? (
          sessionFigure
        ) : (
          <>
            <div>
              <dt title="Payloads (tool outputs, thinking, tool-call arguments, images) taken out of the active context and kept in the checkpoint's archive, each behind a marker the model reads and recoverable by its SHA-256">
                Moved out
              </dt>
              <dd>
                <span data-testid="stats-payloads">{formatCount(stats.payloads)}</span> payloads{stats.capped > 0 ? ` (${stats.capped} prose blocks capped)` : ""}
              </dd>
            </div>
            <div>
              <dt title={GLOSSARY.proseSegments}>Prose verbatim</dt>
              <dd>
                {formatCount(stats.proseVerbatim)} / {formatCount(stats.proseSegments)} segments
              </dd>
            </div>
            <div>
              <dt title={GLOSSARY.metadataFields}>Metadata kept</dt>
              <dd>{formatCount(stats.metadataFields)} fields</dd>
            </div>
          </>
        )}
      </dl>
      <dl className="stat-list">
        <div className="stats-usage">
          <dt title="What the file records as the model's input at its last turn, beside the model's view of the same context counted here">Last turn</dt>
          <RecordedUsage figures={figures} />
        </div>
        {audit ? null : sessionFigure}
        <div className="stats-timings-block">
          <dd
            className="dim stats-timings"
            data-testid="stats-timings"
            title="Measured in the worker on this machine, for this file: reading it and decoding it into JSON records, building the session from those records, and the compaction."
          >
            read {formatSeconds(session.timings.readMs)} · built {formatSeconds(session.timings.parseMs)}
            {view.pending ? "" : ` · compacted ${formatSeconds(view.compactMs)}`}
          </dd>
        </div>
      </dl>
      {tokens.error?.viewId === view.id ? <p className="dim">Counting tokens failed ({tokens.error.message}); the figures above are estimates.</p> : null}
      <CompositionBar figures={figures} caption={audit ? `After compaction #${audit.index}` : "Active context"} />
    </div>
  );
}
