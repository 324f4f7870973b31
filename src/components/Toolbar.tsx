/** Loading and compaction controls. */
import { useState, type ChangeEvent } from "react";
import { DEMOS, demoSource } from "../demos.ts";
import { download } from "./download.ts";
import { FolderButton } from "./library/FolderButton.tsx";
import { exportCheckpoint, figuresFor, loadSource, openShare, recompact, recoverSelected, setCheckride, setPresenting, useApp, useTokens } from "../store/store.ts";
import { proseShare } from "./stats/CompositionBar.tsx";
import { strategyShortLabel } from "./strategy/guide.ts";
import { StrategyNote } from "./strategy/StrategyNote.tsx";

export function Toolbar() {
  const strategies = useApp((s) => s.strategies);
  const strategy = useApp((s) => s.strategy);
  const session = useApp((s) => s.session);
  const view = useApp((s) => s.view);
  const leafId = useApp((s) => s.leafId);
  const proseCap = useApp((s) => s.proseCap);
  const busy = useApp((s) => s.busy);
  const checkrideOpen = useApp((s) => s.checkride.open);
  const tokens = useTokens();
  const prose = view && !view.pending ? proseShare(figuresFor(view, tokens)) : null;
  const [capText, setCapText] = useState(proseCap === null ? "" : String(proseCap));
  const disabled = !session || busy !== null || !view || view.pending === true;

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) void loadSource({ kind: "file", file });
    event.target.value = ""; // the same file can be chosen again
  };

  const applyCap = () => {
    const trimmed = capText.trim();
    const cap = trimmed === "" ? null : Number(trimmed);
    if (cap !== null && (!Number.isInteger(cap) || cap < 0)) return;
    if (cap !== proseCap) void recompact({ proseCap: cap });
  };

  const onExport = async () => download(await exportCheckpoint());

  return (
    <>
    <div className="toolbar" role="toolbar" aria-label="Session controls">
      <label className="file-button">
        Open session…
        <input data-testid="file-input" type="file" accept=".jsonl,.json,application/json,text/plain" onChange={onFile} />
      </label>
      <FolderButton />
      <label className="field">
        <span>Demo</span>
        <select
          aria-label="Open a demo session"
          value=""
          onChange={(e) => {
            const demo = DEMOS.find((d) => d.file === e.target.value);
            if (demo) void loadSource(demoSource(demo));
          }}
        >
          <option value="">Choose a demo…</option>
          {DEMOS.map((demo) => (
            <option key={demo.file} value={demo.file}>
              {demo.title}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Strategy</span>
        <select data-testid="strategy-select" value={strategy} disabled={disabled} onChange={(e) => void recompact({ strategy: e.target.value })}>
          {strategies.map((s) => (
            <option key={s.name} value={s.name} title={`${s.label}: ${s.description}`}>
              {strategyShortLabel(s.name, s.label)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Branch</span>
        <select data-testid="leaf-select" value={leafId ?? ""} disabled={disabled || !session || session.leaves.length === 0} onChange={(e) => void recompact({ leafId: e.target.value })}>
          {session?.leaves.map((leaf) => (
            <option key={leaf.id} value={leaf.id}>
              {leaf.isDefault ? "★ " : ""}
              {leaf.label} ({leaf.messages} msgs, {leaf.id})
            </option>
          ))}
        </select>
      </label>
      <label
        className="field"
        title="A character budget for user and assistant prose only: past it, the oldest whole prose blocks move out first. Tool output, thinking and markers are not affected. Empty: no cap."
      >
        <span>Prose cap (chars, prose only)</span>
        <input
          className="cap-input"
          type="number"
          min={0}
          step={1000}
          placeholder="none"
          value={capText}
          disabled={disabled}
          onChange={(e) => setCapText(e.target.value)}
          onBlur={applyCap}
          onKeyDown={(e) => e.key === "Enter" && applyCap()}
          aria-label="Prose cap in characters (applies to prose only)"
        />
        {prose !== null ? (
          <span className="cap-hint dim" data-testid="prose-share">
            prose is {prose < 1 && prose > 0 ? "<1" : Math.round(prose)}% of the active context
          </span>
        ) : null}
      </label>
      <button
        type="button"
        disabled={disabled}
        onClick={() => void recompact({ fromPrevious: true })}
        data-testid="recompact-button"
        title="Runs the strategy again on top of the result on screen, as an agent does at its next compaction: every recovery id and hash of the earlier round must survive."
      >
        Compact this result again (round {(view?.round ?? 0) + 2})
      </button>
      <button type="button" disabled={disabled} onClick={() => void recoverSelected()} title="Recover every payload of the selected message (Enter)">
        Recover in message
      </button>
      <button type="button" disabled={disabled} onClick={() => setCheckride({ open: !checkrideOpen })} aria-pressed={checkrideOpen} data-testid="checkride-toggle">
        Checkride
      </button>
      <button type="button" disabled={disabled} onClick={() => void openShare()} data-testid="share-toggle" title="Scan for secrets, then download the audit report, the scorecard or a masked checkpoint">
        Share…
      </button>
      <button type="button" disabled={disabled} onClick={() => setPresenting(true)} data-testid="present-toggle" title="Large type, the two panes and the score only; arrow keys step through omissions">
        Present
      </button>
      <button type="button" disabled={disabled} onClick={() => void onExport()} title="Download the checkpoint JSON (session-inspector/checkpoint@1). It contains the original payloads.">
        Export checkpoint
      </button>
    </div>
    <StrategyNote />
    </>
  );
}
