/**
 * A checkride score card as a list: per probe, the answer key fact by fact
 * (with a link to where each came from, labelled by role and line), the
 * reader's answer beside it, and pass/fail per fact. The key can be edited
 * here: strike a fact out, put it back, add one.
 */
import { useState } from "react";
import type { CheckrideResult, ProbeResult } from "../../../core/checkride/run.ts";
import { addFact, isStruck, jumpToMessage, jumpToSource, removeAddedFact, toggleStruck, useApp } from "../../store/store.ts";
import { CandidateList } from "./CandidateList.tsx";
import { FactText, Quote } from "./FactQuote.tsx";
import { readerHeading, VERDICT_LABELS, type Verdict } from "../../../core/checkride/verdict.ts";
import { sourceLabel } from "./source-label.ts";
import { GLOSSARY } from "../glossary.ts";
import { probeTrust } from "../../../core/checkride/key-measure.ts";

const STATUS_LABEL: Record<ProbeResult["status"], string> = { pass: "pass", fail: "fail", skipped: "skipped", inconclusive: "no answer" };
/** The paper's measure in words: a wrong answer misleads, a "don't know" only leaves the next agent asking. */
const VERDICT_TITLES: Record<Verdict, string> = {
  correct: "The model's answer meets the key",
  "dont-know": "The model said it does not know (or said nothing): it leaves the next agent asking",
  wrong: "The model asserted something the key does not hold: it would mislead the next agent",
};

/** Probes whose facts are paths, values or commands: shown in monospace. */
const MONO = new Set(["files", "anchors", "verify"]);

interface FactRowProps {
  strategy: string;
  probe: ProbeResult;
  index: number;
  fact: NonNullable<ProbeResult["facts"]>[number];
  struck: boolean;
}

function FactRow({ strategy, probe, index, fact, struck }: FactRowProps) {
  const focused = useApp((s) => s.checkride.focused);
  const isFocused = focused?.strategy === strategy && focused.probe === probe.id && focused.index === index;
  const graded = probe.status === "pass" || probe.status === "fail";
  const met = struck ? "struck" : graded && fact.met !== undefined ? (fact.met ? "met" : "missed") : "ungraded";
  return (
    <li className={`key-fact fact-${met}${isFocused ? " focused" : ""}`} data-testid="key-fact" data-met={met}>
      <span className="fact-mark" aria-label={met}>
        {met === "met" ? "✓" : met === "missed" ? "✗" : met === "struck" ? "—" : "·"}
      </span>
      <span className={`fact-text${MONO.has(probe.id) ? " mono" : ""}`}>
        {struck ? <s>{fact.text}</s> : <FactText text={fact.text} source={fact.source} focused={isFocused} />}
      </span>
      <span className="fact-actions">
        {fact.added ? <span className="edited-tag">added by you</span> : null}
        {fact.source ? (
          <button
            type="button"
            className="link-button fact-source"
            data-testid="fact-source"
            data-message-id={fact.source.messageId}
            title="Show where this fact came from in both panes"
            onClick={() => void jumpToSource(fact.source!, { strategy, probe: probe.id, index })}
          >
            {sourceLabel(fact.source)}
          </button>
        ) : null}
        {fact.added ? (
          <button type="button" className="link-button" onClick={() => removeAddedFact(probe.id, fact.text)}>
            remove
          </button>
        ) : (
          <button
            type="button"
            className="link-button"
            data-testid="strike-fact"
            onClick={() => toggleStruck(probe.id, fact.text)}
            title={struck ? "Put this fact back in the key" : "Strike this fact out of the key"}
          >
            {struck ? "restore" : "strike"}
          </button>
        )}
      </span>
      {isFocused && fact.source && fact.source.quote !== fact.text ? <Quote source={fact.source} /> : null}
    </li>
  );
}

function AddFact({ probe }: { probe: string }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  if (!open)
    return (
      <button type="button" className="link-button add-fact" onClick={() => setOpen(true)}>
        + add a fact
      </button>
    );
  const submit = () => {
    addFact(probe, text);
    setText("");
    setOpen(false);
  };
  return (
    <form
      className="add-fact-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <input
        type="text"
        autoFocus
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-label={`New fact for ${probe}`}
        placeholder="a fact the reader should know"
        onKeyDown={(e) => e.key === "Escape" && setOpen(false)}
      />
      <button type="submit" className="small" disabled={!text.trim()}>
        Add
      </button>
    </form>
  );
}

/**
 * How often this probe's key is right on sessions labelled blind (core/checkride/key-measure.ts): said
 * beside the key, so a probe the key often gets wrong reads as the key's reading, not the truth.
 */
function KeyTrust({ probe }: { probe: string }) {
  const trust = probeTrust(probe);
  if (!trust) return null;
  return (
    <span className={`key-trust${trust.meets ? "" : " key-trust-low"}`} data-testid="key-trust" title={trust.explanation}>
      {trust.given === 0
        ? `· on blind-labelled sessions this key graded none by itself${trust.candidatesFound !== undefined ? ` (${probe === "rules" ? "a rule said once" : probe === "error" ? "a failure never run again" : "a link or a ref"} waits for you); there its candidates found ${trust.candidatesFound} of the ${trust.expected} a reviewer labelled` : ""}`
        : `· this key measured on blind-labelled sessions: right ${trust.right} of ${trust.given}, finds ${trust.found} of ${trust.expected}`}
    </span>
  );
}

function ProbeRow({ strategy, probe }: { strategy: string; probe: ProbeResult }) {
  const edits = useApp((s) => s.checkride.edits);
  const struckHere = edits.struck.filter((s) => s.probe === probe.id);
  const shown = probe.facts ?? [];
  // Struck facts are no longer in the result's key: show them struck, so they can be put back.
  const struckFacts = struckHere.filter((s) => !shown.some((f) => f.text === s.fact)).map((s) => ({ text: s.fact }));
  return (
    <li data-testid="probe-row" data-probe-id={probe.id} data-status={probe.status} className={`probe probe-${probe.status}`}>
      <div className="probe-head">
        <span className={`status status-${probe.status}`}>{STATUS_LABEL[probe.status]}</span> <strong>{probe.id}</strong> <span className="dim">{probe.question}</span>
        {probe.verdict ? (
          <span className={`verdict verdict-${probe.verdict}`} data-testid="verdict" title={VERDICT_TITLES[probe.verdict]}>
            {VERDICT_LABELS[probe.verdict]}
          </span>
        ) : null}
        {probe.ms !== undefined ? <span className="dim small-text"> {(probe.ms / 1000).toFixed(1)} s</span> : null}
        {probe.edited ? <span className="edited-tag">key edited by you</span> : null}
      </div>
      <div className="probe-body">
        <div className="probe-key">
          <div className="col-label">
            answer key (from the record) <KeyTrust probe={probe.id} />
          </div>
          {shown.length + struckFacts.length > 0 ? (
            <ul className="key-facts">
              {shown.map((fact, i) => (
                <FactRow key={`f-${i}`} strategy={strategy} probe={probe} index={i} fact={fact} struck={false} />
              ))}
              {struckFacts.map((fact, i) => (
                <FactRow key={`s-${i}`} strategy={strategy} probe={probe} index={shown.length + i} fact={fact} struck={isStruck(edits, probe.id, fact.text)} />
              ))}
            </ul>
          ) : (
            <div className="dim">{probe.note}</div>
          )}
          <CandidateList strategy={strategy} probe={probe} />
          <AddFact probe={probe.id} />
        </div>
        <div className="probe-answer">
          <div className="col-label">reader's answer</div>
          {probe.status === "inconclusive" ? (
            <span className="dim">{probe.note}</span>
          ) : probe.status === "skipped" ? (
            <span className="dim">not asked</span>
          ) : (
            <pre className="pre answer-text">{probe.answer}</pre>
          )}
          {probe.evidence.length > 0 ? (
            <div className="evidence small-text">
              found in the active context:{" "}
              {probe.evidence.map((id, i) => (
                <button key={id} type="button" className="link-button" data-message-id={id} onClick={() => void jumpToMessage(id)} title="Show this message in the active pane">
                  place {i + 1}
                </button>
              ))}
            </div>
          ) : null}
        </div>
      </div>
    </li>
  );
}

export function ScoreCard({ result, model }: { result: CheckrideResult; model: string }) {
  const label = result.reader === "literal" ? "facts present in context" : result.reader === "local" ? readerHeading(result) : `answered correctly by ${model || "the model"}`;
  return (
    <section className="score-card" aria-label={`Checkride of ${result.strategy}`}>
      <h3>
        {result.strategy}{" "}
        {result.needsModel ? (
          <span data-testid="checkride-score" data-strategy={result.strategy} data-needs-model="true" className="score needs-model">
            needs a model
          </span>
        ) : (
          <>
            <span data-testid="checkride-score" data-strategy={result.strategy} className="score" title={GLOSSARY.keptOfAsked}>
              {result.passed}/{result.asked}
            </span>{" "}
            <span className="dim">{label}</span>
            {result.verdicts ? (
              <span className="dim small-text" data-testid="verdict-counts">
                {" "}
                · {result.verdicts.correct} correct, {result.verdicts["dont-know"]} don't know, <strong>{result.verdicts.wrong} confidently wrong</strong>
              </span>
            ) : null}
          </>
        )}
      </h3>
      {result.needsModel ? (
        <p className="dim small-text">
          Skipped, not failed: {result.needsModel.replace(/^needs a model: /, "")}. Set a model endpoint and tick "also write … summaries" to grade this tier.
        </p>
      ) : (
        <ol className="probe-list">
          {result.probes.map((probe) => (
            <ProbeRow key={probe.id} strategy={result.strategy} probe={probe} />
          ))}
        </ol>
      )}
    </section>
  );
}

export function Matrix({ results }: { results: CheckrideResult[] }) {
  const ids = results.find((r) => !r.needsModel)?.probes.map((p) => p.id) ?? results[0]?.probes.map((p) => p.id) ?? [];
  return (
    <table className="matrix" aria-label="Strategies by probes">
      <thead>
        <tr>
          <th>strategy</th>
          {ids.map((id) => (
            <th key={id}>{id}</th>
          ))}
          <th>score</th>
        </tr>
      </thead>
      <tbody>
        {results.map((result) => (
          <tr key={result.strategy} className={result.needsModel ? "needs-model-row" : undefined}>
            <th>{result.strategy}</th>
            {result.needsModel ? (
              <td colSpan={ids.length} className="dim" title={result.needsModel}>
                needs a model (skipped)
              </td>
            ) : (
              result.probes.map((probe) => (
                <td key={probe.id} className={`cell cell-${probe.status}`} title={`${probe.id}: ${probe.status}`}>
                  {probe.status === "pass" ? "✓" : probe.status === "fail" ? "✗" : probe.status === "inconclusive" ? "?" : "–"}
                </td>
              ))
            )}
            <td>{result.needsModel ? "–" : `${result.passed}/${result.asked}`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
