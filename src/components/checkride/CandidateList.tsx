/**
 * The answer key's candidates under a probe: rule-shaped sentences and
 * anchors (links, refs) the extractor is not sure of, each with why and
 * where it came from. None is
 * graded until the user accepts it (it joins the key as their fact); a
 * struck one stays listed, struck, so it can be put back. A long list (a
 * real session can hold sixty) can be narrowed to one reason at a time,
 * and that reason's candidates struck in one go.
 */
import { useState } from "react";
import type { ProbeResult } from "../../../core/checkride/run.ts";
import { addFact, jumpToSource, restoreAll, strikeAll, toggleStruck, useApp } from "../../store/store.ts";
import { sourceLabel } from "./source-label.ts";
import { FactText, Quote } from "./FactQuote.tsx";

type Candidate = NonNullable<ProbeResult["candidates"]>[number];

/** Candidates' focus indices sit below zero, apart from the key facts' 0, 1, 2 … */
const focusIndex = (i: number) => -1 - i;

function CandidateRow({ strategy, probe, candidate, index }: { strategy: string; probe: string; candidate: Candidate; index: number }) {
  const focused = useApp((s) => s.checkride.focused);
  const isFocused = focused?.strategy === strategy && focused.probe === probe && focused.index === focusIndex(index);
  return (
    <li
      className={`key-fact fact-candidate${candidate.struck ? " fact-struck" : ""}${isFocused ? " focused" : ""}`}
      data-testid="key-candidate"
      data-candidate={candidate.text}
      data-struck={candidate.struck ? "true" : undefined}
    >
      <span className="fact-mark" aria-label="candidate, not graded">
        ?
      </span>
      <span className={`fact-text${probe === "anchors" ? " mono" : ""}`}>
        {candidate.struck ? <s>{candidate.text}</s> : <FactText text={candidate.text} source={candidate.source} focused={isFocused} />}
        <span className="candidate-why dim small-text"> {candidate.why}</span>
      </span>
      <span className="fact-actions">
        {candidate.source ? (
          <button
            type="button"
            className="link-button fact-source"
            data-testid="candidate-source"
            data-message-id={candidate.source.messageId}
            title="Show where this came from in both panes"
            onClick={() => void jumpToSource(candidate.source!, { strategy, probe, index: focusIndex(index) })}
          >
            {sourceLabel(candidate.source)}
          </button>
        ) : null}
        {candidate.struck ? null : (
          <button
            type="button"
            className="link-button"
            data-testid="accept-candidate"
            title={`Put this ${probe === "rules" ? "sentence" : "fact"} in the answer key: it is graded from now on`}
            onClick={() => addFact(probe, candidate.text)}
          >
            accept
          </button>
        )}
        <button
          type="button"
          className="link-button"
          data-testid="strike-candidate"
          title={candidate.struck ? "List this candidate again" : probe === "rules" ? "Not a standing rule: strike it" : "Not one the key should hold: strike it"}
          onClick={() => toggleStruck(probe, candidate.text)}
        >
          {candidate.struck ? "restore" : "strike"}
        </button>
      </span>
      {isFocused && candidate.source && candidate.source.quote !== candidate.text ? <Quote source={candidate.source} /> : null}
    </li>
  );
}

/** Above this many candidates the list starts closed and offers its reasons as filters. */
const SHORT_LIST = 8;

/** A candidate's reason in a few words: its why up to the colon ("'should' or 'needs to'"). */
export function reasonOf(why: string): string {
  return why.split(":")[0]!.trim();
}

export function CandidateList({ strategy, probe }: { strategy: string; probe: ProbeResult }) {
  const [reason, setReason] = useState<string | null>(null);
  const candidates = probe.candidates ?? [];
  if (candidates.length === 0) return null;
  const open = candidates.filter((c) => !c.struck).length;
  const reasons = new Map<string, number>();
  for (const candidate of candidates) reasons.set(reasonOf(candidate.why), (reasons.get(reasonOf(candidate.why)) ?? 0) + 1);
  const filtering = candidates.length > SHORT_LIST && reasons.size > 1;
  // A reason whose last candidate was accepted is gone: the list falls back to all.
  const active = filtering && reason !== null && reasons.has(reason) ? reason : null;
  const shown = candidates.map((candidate, i) => ({ candidate, i })).filter(({ candidate }) => active === null || reasonOf(candidate.why) === active);
  // One reason's candidates are often all of a kind (a pasted page's "should"s): struck in one go.
  const strikable = active === null ? [] : shown.filter(({ candidate }) => !candidate.struck).map(({ candidate }) => candidate.text);
  const restorable = active === null || strikable.length > 0 ? [] : shown.map(({ candidate }) => candidate.text);
  return (
    <details className="candidates" data-testid="candidates" open={open > 0 && open <= SHORT_LIST}>
      <summary className="col-label">
        {candidates.length} candidate{candidates.length === 1 ? "" : "s"}: not graded until you accept one
      </summary>
      {filtering ? (
        <div className="candidate-reasons" role="group" aria-label="Show candidates by reason" data-testid="candidate-reasons">
          <button type="button" className="chip" aria-pressed={active === null} onClick={() => setReason(null)}>
            all {candidates.length}
          </button>
          {[...reasons].map(([label, count]) => (
            <button key={label} type="button" className="chip" aria-pressed={active === label} title={label} onClick={() => setReason(active === label ? null : label)}>
              {label.length > 48 ? `${label.slice(0, 47)}…` : label} ({count})
            </button>
          ))}
        </div>
      ) : null}
      {strikable.length > 1 ? (
        <button
          type="button"
          className="small"
          data-testid="strike-reason"
          title={`Strike every candidate listed for "${active}": none of them is graded (restore puts them back)`}
          onClick={() => strikeAll(probe.id, strikable)}
        >
          Strike these {strikable.length} ({active})
        </button>
      ) : restorable.length > 1 ? (
        <button type="button" className="small" data-testid="restore-reason" title={`List every candidate for "${active}" again`} onClick={() => restoreAll(probe.id, restorable)}>
          Restore these {restorable.length}
        </button>
      ) : null}
      <ul className="key-facts">
        {shown.map(({ candidate, i }) => (
          <CandidateRow key={candidate.text} strategy={strategy} probe={probe.id} candidate={candidate} index={i} />
        ))}
      </ul>
    </details>
  );
}
