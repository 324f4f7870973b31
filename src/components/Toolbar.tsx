/** Loading and compaction controls. */
import { useState, type ChangeEvent } from "react";
import { DEMOS, demoSource } from "../demos.ts";
import { download } from "./download.ts";
import { FolderButton } from "./library/FolderButton.tsx";
import { exportCheckpoint, loadSource, openShare, recompact, recoverSelected, setCheckride, setPresenting, useApp } from "../store/store.ts";

export function Toolbar() {
  const strategies = useApp((s) => s.strategies);
  const strategy = useApp((s) => s.strategy);
  const session = useApp((s) => s.session);
  const view = useApp((s) => s.view);
  const leafId = useApp((s) => s.leafId);
  const proseCap = useApp((s) => s.proseCap);
  const busy = useApp((s) => s.busy);
  const checkrideOpen = useApp((s) => s.checkride.open);
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
            <option key={s.name} value={s.name} title={s.description}>
              {s.label}
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
      <label className="field" title="Character budget for active prose; the oldest whole blocks move out first. Empty: no cap.">
        <span>Prose cap</span>
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
          aria-label="Prose cap in characters"
        />
      </label>
      <button type="button" disabled={disabled} onClick={() => void recompact({ fromPrevious: true })} title="Compact again, starting from the current checkpoint: every recovery id and hash must survive">
        Recompact{view && view.round > 0 ? ` (round ${view.round + 1})` : ""}
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
  );
}
