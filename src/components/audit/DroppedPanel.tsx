/**
 * The audit of the compaction in the panes: its figures, the summary it
 * wrote (whole), and what fell out: the facts, the human messages dropped or
 * only summarised, the tool outputs dropped. Each message is a link that
 * selects it in the original (before) pane.
 */
import { useEffect, useState } from "react";
import { showDroppedMessage, useApp, useAudit } from "../../store/store.ts";
import { usePanelsOpen } from "../layout/BottomPanels.tsx";
import { formatBytes, formatCount } from "../format.ts";
import { kindLabel, fileTokensText } from "./labels.ts";
import { AUDIT_VS_CHECKRIDE, probeFateText, probeName } from "../../../core/audit/fact-ledger.ts";
import type { CompactionAuditView } from "../../worker/protocol.ts";
import { GLOSSARY } from "../glossary.ts";

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

/**
 * The folded panel's one line: what an auditor reads first (the score, the facts by name, the counts of
 * what left), so the panes keep the window's top third. The full line is on hover where the window cuts it.
 */
function digestParts(audit: NonNullable<ReturnType<typeof useAuditView>>, counts: { before: number; after: number }, data: CompactionAuditView | null, figures: string): string[] {
  const head = [`Compaction #${audit.index} of ${audit.count}`, kindLabel(audit.kind), ...(audit.trigger ? [audit.trigger] : [])];
  // What came in (a summary, its attachments) is said too, so the three counts add up.
  const added = counts.after - (counts.before - audit.dropped);
  const messages = `${formatCount(counts.before)} → ${formatCount(counts.after)} messages (${formatCount(audit.dropped)} left the context${added > 0 ? `, ${formatCount(added)} added` : ""})`;
  if (!data) return [...head, messages, figures];
  const fellOut = data.factFates.filter((f) => f.fate === "fell-out").map((f) => probeName(f.probe));
  const humans = data.dropped.humanMessages;
  const summarised = humans.filter((m) => m.fate === "summarised").length;
  return [
    ...head,
    `${data.facts.kept}/${data.facts.asked} facts present in context after`,
    ...(data.facts.asked === 0 ? [] : [fellOut.length ? `fell out here: ${fellOut.join("; ")}` : "none fell out here"]),
    ...(data.facts.goneBefore ? [`${formatCount(data.facts.goneBefore)} already gone before`] : []),
    `transparent would keep ${data.facts.transparent}/${data.facts.asked}`,
    messages,
    humans.length === 0
      ? "every human message kept"
      : `${formatCount(humans.length)} human message${humans.length === 1 ? "" : "s"} ${summarised === humans.length ? "only summarised" : `left (${formatCount(summarised)} only summarised)`}`,
    `${formatCount(data.dropped.toolOutputs.length)} tool output${data.dropped.toolOutputs.length === 1 ? "" : "s"} dropped`,
    ...(data.summary ? [`summary of ${formatCount(data.summary.length)} chars`] : []),
  ];
}

function useAuditView() {
  return useApp((s) => s.view?.audit);
}

export function DroppedPanel() {
  const audit = useAuditView();
  const entry = useAudit((s) => (audit ? s.audits[audit.index] : undefined));
  const before = useApp((s) => s.view?.original.count ?? 0);
  const after = useApp((s) => s.view?.active.count ?? 0);
  const counts = { before, after };
  const panelsOpen = usePanelsOpen();
  // Folded by default: its line carries the figures, and the panes start in the window's top third.
  // Opened, it stays open across compactions until a panel under the panes opens and needs the rows.
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (panelsOpen) setOpen(false);
  }, [panelsOpen]);
  if (!audit) return null;
  const figures = fileTokensText(audit.kind, audit.tokensBefore, audit.tokensAfter) ?? "the file states no token figures";
  const data = entry?.status === "done" ? entry.audit : null;
  const parts = digestParts(audit, counts, data, figures);
  const digest = parts.join(" · ");
  return (
    <details className="dropped-panel" data-testid="dropped-panel" open={open}>
      <summary
        title={`${digest} · ${figures}. Click for the facts, the messages and the summary.`}
        onClick={(event) => {
          event.preventDefault();
          setOpen(!open);
        }}
      >
        <span className="dropped-digest" data-testid="dropped-digest">
          {parts.map((part, i) => (
            <span key={i}>
              {i > 0 ? " · " : ""}
              {i === 0 ? <strong>{part}</strong> : part.endsWith(" facts present in context after") ? <strong title={GLOSSARY.keptOfAsked}>{part}</strong> : part}
            </span>
          ))}
        </span>
        <span className="dropped-toggle">{open ? "hide details" : "details"}</span>
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
