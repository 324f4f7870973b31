/**
 * The answer key's candidates under a probe: rule-shaped sentences the
 * extractor is not sure of, each with why and where it came from. None is
 * graded until the user accepts it (it joins the key as their fact); a
 * struck one stays listed, struck, so it can be put back.
 */
import type { ProbeResult } from "../../../core/checkride/run.ts";
import { addFact, jumpToSource, toggleStruck, useApp } from "../../store/store.ts";
import { sourceLabel } from "./source-label.ts";

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
      data-struck={candidate.struck ? "true" : undefined}
    >
      <span className="fact-mark" aria-label="candidate, not graded">
        ?
      </span>
      <span className="fact-text">
        {candidate.struck ? <s>{candidate.text}</s> : candidate.text}
        <span className="candidate-why dim small-text"> {candidate.why}</span>
      </span>
      <span className="fact-actions">
        {candidate.source ? (
          <button
            type="button"
            className="link-button fact-source"
            data-message-id={candidate.source.messageId}
            title="Show where this sentence came from in both panes"
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
            title="Put this sentence in the answer key: it is graded from now on"
            onClick={() => addFact(probe, candidate.text)}
          >
            accept
          </button>
        )}
        <button
          type="button"
          className="link-button"
          data-testid="strike-candidate"
          title={candidate.struck ? "List this candidate again" : "Not a standing rule: strike it"}
          onClick={() => toggleStruck(probe, candidate.text)}
        >
          {candidate.struck ? "restore" : "strike"}
        </button>
      </span>
    </li>
  );
}

export function CandidateList({ strategy, probe }: { strategy: string; probe: ProbeResult }) {
  const candidates = probe.candidates ?? [];
  if (candidates.length === 0) return null;
  const open = candidates.filter((c) => !c.struck).length;
  return (
    <details className="candidates" data-testid="candidates" open={open > 0 && open <= 8}>
      <summary className="col-label">
        {candidates.length} candidate{candidates.length === 1 ? "" : "s"}: not graded until you accept one
      </summary>
      <ul className="key-facts">
        {candidates.map((candidate, i) => (
          <CandidateRow key={candidate.text} strategy={strategy} probe={probe.id} candidate={candidate} index={i} />
        ))}
      </ul>
    </details>
  );
}
