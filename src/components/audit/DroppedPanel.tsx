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
              {data.facts.recorded}/{data.facts.asked}
            </strong>{" "}
            facts present in context after (transparent would keep {data.facts.transparent})
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
          <div>
            <h3>Facts that fell out ({data.dropped.facts.length})</h3>
            {data.dropped.facts.length === 0 ? <p className="dim">None of the facts checked was lost.</p> : null}
            <ul>
              {data.dropped.facts.map((f, i) => (
                <li key={i}>
                  <span className="dim">{f.probe}:</span> {f.fact}
                </li>
              ))}
            </ul>
          </div>
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
