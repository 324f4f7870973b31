/**
 * The checkride: quiz a reader holding only the active context, graded
 * against facts from the record. Score cards per strategy side by side, a
 * strategies × probes matrix, and the score over recompaction rounds.
 */
import { CheckrideCleared } from "./strategy/CheckrideCleared.tsx";
import { allowedEndpointOrigins, originOf, setEndpointAllowed } from "../csp.ts";
import { chosenStrategyNames, recompact, runCheckride, runRoundsNow, setCheckride, setCheckrideSettings, setRounds, useApp } from "../store/store.ts";
import { CheckrideProgress, KeyEditsLine, ReaderExplanation } from "./checkride/Status.tsx";
import { Matrix, ScoreCard } from "./checkride/ScoreCard.tsx";
import { LocalModelSettings } from "./checkride/LocalModelSettings.tsx";
import { GLOSSARY } from "./glossary.ts";

function History() {
  const history = useApp((s) => s.checkride.history);
  if (history.length < 2) return null;
  return (
    <div className="history" aria-label="Score over compaction rounds">
      <h3 title={GLOSSARY.round}>Over recompaction rounds</h3>
      <ol className="rounds">
        {history.map((entry) => (
          <li key={`${entry.round}-${entry.strategy}-${entry.reader}`}>
            round {entry.round + 1} · {entry.strategy} ({entry.reader}):{" "}
            <span className="round-bar" style={{ width: `${entry.asked ? (entry.passed / entry.asked) * 120 : 0}px` }} /> {entry.passed}/{entry.asked}
          </li>
        ))}
      </ol>
    </div>
  );
}

function EndpointSettings() {
  const settings = useApp((s) => s.checkride.settings);
  const origin = originOf(settings.endpointUrl);
  const allowed = allowedEndpointOrigins();
  return (
    <div className="endpoint-settings">
      <label className="field">
        <span>Endpoint (OpenAI-compatible base URL)</span>
        <input type="url" placeholder="http://127.0.0.1:8080/v1" value={settings.endpointUrl} onChange={(e) => setCheckrideSettings({ endpointUrl: e.target.value })} />
      </label>
      <label className="field">
        <span>Model</span>
        <input type="text" placeholder="qwen2.5-coder" value={settings.model} onChange={(e) => setCheckrideSettings({ model: e.target.value })} />
      </label>
      <label className="field">
        <span>Timeout (seconds)</span>
        <input
          type="number"
          min={1}
          value={settings.timeoutSeconds}
          onChange={(e) => setCheckrideSettings({ timeoutSeconds: Math.max(1, Number(e.target.value) || 120) })}
          aria-label="Endpoint timeout in seconds"
          style={{ minWidth: 0, width: 90 }}
        />
      </label>
      <label className="field">
        <span>API key (optional, kept in memory only)</span>
        <input type="password" autoComplete="off" value={settings.apiKey} onChange={(e) => setCheckrideSettings({ apiKey: e.target.value })} />
      </label>
      <label
        className="filter"
        title="pi-default and handoff leave their summary slot empty without a model; with this on, the model writes it (handoff also quizzes it, regenerates once and splices missed facts)."
      >
        <input
          type="checkbox"
          checked={settings.summaries}
          onChange={(e) => {
            setCheckrideSettings({ summaries: e.target.checked });
            void recompact({});
          }}
        />{" "}
        also write pi-default and handoff summaries with this model
      </label>
      {origin && !allowed.includes(origin) ? (
        <div className="banner info">
          The page may only connect to its own origin.{" "}
          <button type="button" className="small primary" onClick={() => setEndpointAllowed(origin, true)}>
            Allow {origin}
          </button>{" "}
          <span className="dim">(reloads the page; drop the session again)</span>
        </div>
      ) : null}
      {allowed.length > 0 ? (
        <div className="dim small-text">
          Allowed endpoints:{" "}
          {allowed.map((o) => (
            <span key={o}>
              {o}{" "}
              <button type="button" className="link-button" onClick={() => setEndpointAllowed(o, false)}>
                forget
              </button>
            </span>
          ))}
        </div>
      ) : null}
    </div>
  );
}

const PLANTED_LABEL = { pass: "✓ carried", fail: "✗ lost", confused: "✗ only the look-alike" } as const;

/** N rounds of recompaction per strategy: the literal score per round, and where a planted fact survives. */
function Rounds() {
  const rounds = useApp((s) => s.checkride.rounds);
  const messages = useApp((s) => s.view?.original.count ?? 0);
  const result = rounds.result;
  return (
    <section className="rounds-section" aria-label="Repeated compaction" data-testid="rounds-panel">
      <h3>Repeated compaction</h3>
      <div className="checkride-controls">
        <label className="field">
          <span>Rounds</span>
          <input
            type="number"
            min={1}
            max={20}
            value={rounds.count}
            onChange={(e) => setRounds({ count: Math.max(1, Math.min(20, Number(e.target.value) || 1)) })}
            aria-label="Number of rounds"
            style={{ width: 70 }}
          />
        </label>
        <label className="field plant-field">
          <span>Plant a fact or rule (optional)</span>
          <input
            type="text"
            placeholder="The staging database listens on port 6543."
            value={rounds.plantText}
            onChange={(e) => setRounds({ plantText: e.target.value })}
            aria-label="Planted fact"
          />
        </label>
        <label className="field">
          <span>before message #</span>
          <input
            type="number"
            min={0}
            max={messages}
            value={rounds.plantAt}
            onChange={(e) => setRounds({ plantAt: Math.max(0, Number(e.target.value) || 0) })}
            aria-label="Plant before message number"
            style={{ width: 90 }}
          />
        </label>
        <button type="button" disabled={rounds.running} onClick={() => void runRoundsNow()}>
          {rounds.running ? "Running rounds…" : "Run rounds"}
        </button>
      </div>
      <p className="dim small-text">
        The session is cut at {rounds.count} points; each round compacts the previous round's active context plus what came after, and the literal reader grades it against the
        record up to that point. A planted fact gets a look-alike elsewhere{result?.distractor ? ` ("${result.distractor}")` : ""}: quoting only the look-alike does not count.
      </p>
      {rounds.error ? (
        <div className="banner error" role="alert">
          {rounds.error}
        </div>
      ) : null}
      {result ? (
        <table className="matrix rounds-table">
          <thead>
            <tr>
              <th>strategy</th>
              {result.results[0]?.rounds.map((r) => (
                <th key={r.round}>
                  round {r.round} <span className="dim">({r.messages} msgs)</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {result.results.map((strategy) => (
              <tr key={strategy.strategy} data-testid="rounds-row" data-strategy={strategy.strategy}>
                <th>{strategy.strategy}</th>
                {strategy.rounds.map((r) => (
                  <td key={r.round} className={r.planted ? `cell-${r.planted === "pass" ? "pass" : "fail"}` : undefined}>
                    <span className="round-bar" style={{ width: `${r.asked ? (r.passed / r.asked) * 60 : 0}px` }} /> {r.passed}/{r.asked}
                    {r.planted ? (
                      <div className="small-text" data-planted={r.planted}>
                        {PLANTED_LABEL[r.planted]}
                      </div>
                    ) : null}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

export function CheckridePanel() {
  const checkride = useApp((s) => s.checkride);
  const strategies = useApp((s) => s.strategies);
  const ready = useApp((s) => s.view !== null && s.view.pending !== true);
  if (!checkride.open) return null;
  const { settings } = checkride;
  const chosen = chosenStrategyNames({ checkride, strategies });
  const endpointReady =
    settings.reader === "literal" ||
    (settings.reader === "local" && settings.localModel !== null) ||
    (settings.endpointUrl !== "" && settings.model !== "" && allowedEndpointOrigins().includes(originOf(settings.endpointUrl) ?? ""));
  return (
    <section className="checkride" data-testid="checkride-panel" aria-label="Checkride">
      <header className="detail-head">
        <h2>Checkride: would a reader holding only the active context know the facts?</h2>
        <button type="button" className="small" onClick={() => setCheckride({ open: false })}>
          Close
        </button>
      </header>
      <div className="checkride-controls">
        <fieldset className="strategies">
          <legend>Strategies</legend>
          {strategies.map((s) => (
            <label key={s.name}>
              <input
                type="checkbox"
                checked={chosen.includes(s.name)}
                onChange={(e) => setCheckrideSettings({ strategies: e.target.checked ? [...chosen, s.name] : chosen.filter((n) => n !== s.name) })}
              />{" "}
              {s.name}
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>Reader</span>
          <select value={settings.reader} onChange={(e) => setCheckrideSettings({ reader: e.target.value as "literal" | "endpoint" | "local" })}>
            <option value="literal">literal (built in: facts present in context)</option>
            <option value="endpoint">a model at an endpoint you run</option>
            <option value="local">a model file here (GGUF, runs in this tab)</option>
          </select>
        </label>
        <label className="field">
          <span>memory.md (optional)</span>
          <input type="file" accept=".md,text/markdown,text/plain" onChange={(e) => setCheckrideSettings({ memory: e.target.files?.[0] ?? null })} />
        </label>
        <button type="button" className="primary" disabled={!ready || checkride.running || chosen.length === 0 || !endpointReady} onClick={() => void runCheckride()}>
          {checkride.running ? "Running…" : "Run checkride"}
        </button>
      </div>
      {settings.reader === "endpoint" ? <EndpointSettings /> : null}
      {settings.reader === "local" ? <LocalModelSettings /> : null}
      <ReaderExplanation reader={settings.reader} />
      <CheckrideProgress />
      <KeyEditsLine />
      {checkride.error ? (
        <div className="banner error" role="alert">
          The checkride failed: {checkride.error}
        </div>
      ) : null}
      {checkride.results ? null : <CheckrideCleared />}
      {checkride.results ? (
        <>
          <Matrix results={checkride.results} />
          <div className="score-cards">
            {checkride.results.map((result) => (
              <ScoreCard key={result.strategy} result={result} model={settings.model} />
            ))}
          </div>
        </>
      ) : null}
      <History />
      <Rounds />
    </section>
  );
}
