/**
 * The audit of the compaction in the panes: its figures, the summary it
 * wrote (whole), and what fell out: the facts, the human messages dropped or
 * only summarised, the tool outputs dropped. Each message is a link that
 * selects it in the original (before) pane.
 */
import { useState } from "react";
import { showDroppedMessage, useApp, useAudit } from "../../store/store.ts";
import { usePanelsOpen } from "../layout/BottomPanels.tsx";
import { formatBytes, formatCount } from "../format.ts";
import { kindLabel, fileTokensText } from "./labels.ts";
import { AUDIT_VS_CHECKRIDE, probeFateText, probeName } from "../../../core/audit/fact-ledger.ts";
import type { CompactionAuditView } from "../../worker/protocol.ts";

/** "1 fell out here, 1 already gone before": the rest of the sum kept + fell out + gone before = asked. */
function factsBreakdown(facts: CompactionAuditView["facts"]): string {
  return [`${facts.fellOut} fell out here`, ...(facts.goneBefore ? [`${facts.goneBefore} already gone before`] : [])].join(", ");
}

/** Every probe asked at this compaction, by fate; a kept probe that lost items says which. */
function FactsColumn({ audit }: { audit: CompactionAuditView }) {
  const fellOut = audit.factFates.filter((f) => f.fate === "fell-out");
  const thinned = audit.factFates.filter((f) => f.fate === "kept" && f.missingItems.length > 0);
  const goneBefore = audit.factFates.filter((f) => f.fate === "gone-before");
  return (
    <div data-testid="dropped-facts">
      <h3 title={AUDIT_VS_CHECKRIDE}>
        Facts that fell out ({fellOut.length} of {audit.facts.asked} asked)
      </h3>
      {audit.facts.asked === 0 ? <p className="dim">No fact could be checked at this moment.</p> : null}
      {audit.facts.asked > 0 && fellOut.length === 0 ? <p className="dim">None of the facts checked fell out here.</p> : null}
      <ul>
        {fellOut.map((f) => (
          <li key={f.probe} data-fate="fell-out">
            <span className="dim">{probeName(f.probe)}:</span> {f.missingItems.length > 1 ? f.missingItems.join("; ") : f.fact}
          </li>
        ))}
        {thinned.map((f) => (
          <li key={f.probe} data-fate="kept">
            <span className="dim">
              {probeName(f.probe)} ({probeFateText(f)}):
            </span>{" "}
            {f.missingItems.join("; ")}
          </li>
        ))}
        {goneBefore.map((f) => (
          <li key={f.probe} data-fate="gone-before" className="dim">
            {probeName(f.probe)}: {probeFateText(f)}
          </li>
        ))}
      </ul>
      <p className="dim small">{AUDIT_VS_CHECKRIDE}</p>
    </div>
  );
}

export function DroppedPanel() {
  const audit = useApp((s) => s.view?.audit);
  const entry = useAudit((s) => (audit ? s.audits[audit.index] : undefined));
  const panelsOpen = usePanelsOpen();
  // The user's own choice for this compaction wins; until they make one, the panel folds to its summary
  // line while a panel under the panes is open, so the panes keep their rows.
  const [chosen, setChosen] = useState<{ index: number; open: boolean } | null>(null);
  if (!audit) return null;
  const open = chosen?.index === audit.index ? chosen.open : !panelsOpen;
  const figures = fileTokensText(audit.kind, audit.tokensBefore, audit.tokensAfter) ?? "the file states no token figures";
  const data = entry?.status === "done" ? entry.audit : null;
  return (
    <details className="dropped-panel" data-testid="dropped-panel" open={open}>
      <summary
        onClick={(event) => {
          event.preventDefault();
          setChosen({ index: audit.index, open: !open });
        }}
      >
        <strong>
          Compaction #{audit.index} of {audit.count}
        </strong>{" "}
        · {kindLabel(audit.kind)}
        {audit.trigger ? ` · ${audit.trigger}` : ""} · {figures} · left: before, right: after · {formatCount(audit.dropped)} messages left the context
        {data ? (
          <>
            {" "}
            ·{" "}
            <strong>
              {data.facts.kept}/{data.facts.asked}
            </strong>{" "}
            facts present in context after ({factsBreakdown(data.facts)}; transparent would keep {data.facts.transparent})
          </>
        ) : null}
      </summary>
      {!entry || entry.status === "loading" ? (
        <p className="dim" aria-busy="true">
          Checking which facts survived…
        </p>
      ) : entry.status === "error" ? (
        <p className="error-text">Could not audit this compaction: {entry.message}</p>
      ) : !data ? (
        <p className="dim">No audit for this compaction.</p>
      ) : (
        <div className="dropped-columns">
          <FactsColumn audit={data} />
          <div>
            <h3>Human messages ({data.dropped.humanMessages.length})</h3>
            {data.dropped.humanMessages.length === 0 ? <p className="dim">Every human message is still there.</p> : null}
            <ul>
              {data.dropped.humanMessages.map((m) => (
                <li key={m.messageId}>
                  <button type="button" className="link-button" onClick={() => void showDroppedMessage(m.messageId)}>
                    {m.line !== null ? `line ${m.line}` : "message"}
                  </button>{" "}
                  {m.fate === "summarised" ? "only summarised" : "dropped"} · {formatCount(m.chars)} chars
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h3>Tool outputs dropped ({data.dropped.toolOutputs.length})</h3>
            {data.dropped.toolOutputs.length === 0 ? <p className="dim">No tool output was dropped.</p> : null}
            <ul>
              {data.dropped.toolOutputs.map((t) => (
                <li key={t.messageId}>
                  <button type="button" className="link-button" onClick={() => void showDroppedMessage(t.messageId)}>
                    {t.toolName ?? "tool"}
                    {t.line !== null ? ` · line ${t.line}` : ""}
                  </button>{" "}
                  {t.fate} · {formatBytes(t.bytes)}, recoverable from the original
                </li>
              ))}
            </ul>
          </div>
          {data.summary ? (
            <div className="dropped-summary">
              <h3>The summary it wrote ({formatCount(data.summary.length)} chars)</h3>
              <pre>{data.summary}</pre>
            </div>
          ) : null}
        </div>
      )}
    </details>
  );
}
