/** What the compaction audit adds to a row: the divider above it, "dropped at #N", "show in the other pane". */
import { showInOtherPane, useApp, useAudit } from "../../store/store.ts";
import type { DividerInfo, Pane, RowProjection } from "../../worker/protocol.ts";
import { kindLabel, scoreText, fileTokensText } from "./labels.ts";

export function CompactionDivider({ divider }: { divider: DividerInfo }) {
  const entry = useAudit((s) => s.audits[divider.index]);
  const figures = fileTokensText(divider.kind, divider.tokensBefore, divider.tokensAfter) ?? "the file states no token figures";
  return (
    <div
      className="compaction-divider"
      data-testid="compaction-divider"
      data-compaction-index={divider.index}
      title={[`compaction #${divider.index}`, kindLabel(divider.kind), divider.trigger, figures, scoreText(entry)].filter(Boolean).join(" · ")}
    >
      <strong>compaction #{divider.index}</strong>
      <span>{kindLabel(divider.kind)}</span>
      {divider.trigger ? <span>{divider.trigger}</span> : null}
      <span>{figures}</span>
      <span>{scoreText(entry)}</span>
    </div>
  );
}

export function RowAuditBadges({ row, pane }: { row: RowProjection; pane: Pane }) {
  const auditing = useApp((s) => s.view?.audit !== undefined);
  const other = row.otherRow ?? -1;
  const label = pane === "original" ? (row.otherIsSummary ? "summary →" : auditing ? "after →" : "active →") : auditing ? "← before" : "← original";
  const title =
    other < 0 ? "Not in the other pane" : row.otherIsSummary ? "Show the summary that replaced this message in the other pane" : "Show the same message in the other pane";
  return (
    <>
      {row.dropped ? (
        <span className="badge badge-dropped" title="Not in the active context">
          {row.dropped.at !== null ? `dropped at #${row.dropped.at}` : "not in active context"}
        </span>
      ) : null}
      {row.isSummary ? <span className="badge badge-summary">summary of what left</span> : null}
      <button
        type="button"
        className="link-button other-pane"
        data-testid="show-in-other-pane"
        disabled={other < 0}
        title={title}
        aria-label={title}
        onClick={(event) => {
          event.stopPropagation();
          showInOtherPane(pane, other);
        }}
      >
        {other < 0 ? "—" : label}
      </button>
    </>
  );
}
