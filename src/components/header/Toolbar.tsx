/** The controls that choose what the panes show: a session, a demo, the strategy and branch, another round. */
import type { ChangeEvent } from "react";
import { DEMOS, demoSource } from "../../demos.ts";
import { FolderButton, openPickedFiles } from "../library/FolderButton.tsx";
import { pickedFromInput } from "../library/pick-files.ts";
import { loadSource, openDatabaseSession, recompact, useApp } from "../../store/store.ts";
import { formatDate } from "../format.ts";
import { useLibrary } from "../../store/library.ts";
import { strategyShortLabel } from "../strategy/guide.ts";

export function Toolbar() {
  const session = useApp((s) => s.session);
  const view = useApp((s) => s.view);
  const busy = useApp((s) => s.busy);
  const disabled = !session || busy !== null || !view || view.pending === true;
  // On the library screen the session behind it is not shown: controls that would change it stay out of reach.
  const libraryShown = useLibrary((s) => s.folder !== null && s.screen === "library");

  // Several files chosen together (a database and its -wal, a Cline task's files) open as a drop of them would.
  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    void openPickedFiles(pickedFromInput(event.target.files));
    event.target.value = ""; // the same file can be chosen again
  };

  return (
    <div className="toolbar" role="toolbar" aria-label="Session controls">
      <label className="file-button">
        Open session…
        <input
          data-testid="file-input"
          type="file"
          multiple
          accept=".jsonl,.json,.zst,.md,.db,.db-wal,application/json,text/plain,text/markdown,application/vnd.sqlite3"
          onChange={onFile}
        />
      </label>
      <FolderButton />
      <label className="field">
        <span>Demo</span>
        <select
          className="demo-select"
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
      {libraryShown ? null : <StrategyControls disabled={disabled} />}
    </div>
  );
}

/** A database holds every session of the machine (OpenCode's opencode.db): which one is open, the newest first. */
function DatabaseSessionPicker({ disabled }: { disabled: boolean }) {
  const database = useApp((s) => s.session?.database);
  if (!database || database.sessions.length < 2) return null;
  return (
    <label className="field" title="This database holds several sessions; the one chosen is read again from the same file">
      <span>Session</span>
      <select
        data-testid="database-session-select"
        className="database-session-select"
        value={database.chosen}
        disabled={disabled}
        onChange={(e) => openDatabaseSession(e.target.value)}
      >
        {database.sessions.map((s) => (
          <option key={s.id} value={s.id} disabled={s.messages === 0}>
            {s.subagent ? "↳ " : ""}
            {s.title} ({s.messages} msgs{s.updated !== null ? `, ${formatDate(s.updated)}` : ""})
          </option>
        ))}
      </select>
    </label>
  );
}

/** What makes the view of the session on screen: the strategy, the branch, another round. */
function StrategyControls({ disabled }: { disabled: boolean }) {
  const strategies = useApp((s) => s.strategies);
  const strategy = useApp((s) => s.strategy);
  const session = useApp((s) => s.session);
  const view = useApp((s) => s.view);
  const leafId = useApp((s) => s.leafId);
  return (
    <>
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
      <DatabaseSessionPicker disabled={disabled} />
      <label className="field">
        <span>Branch</span>
        <select
          data-testid="leaf-select"
          value={leafId ?? ""}
          disabled={disabled || !session || session.leaves.length === 0}
          onChange={(e) => void recompact({ leafId: e.target.value })}
        >
          {session?.leaves.map((leaf) => (
            <option key={leaf.id} value={leaf.id}>
              {leaf.isDefault ? "★ " : ""}
              {leaf.label} ({leaf.messages} msgs, {leaf.id})
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        disabled={disabled || (view?.audit ?? null) !== null}
        onClick={() => void recompact({ fromPrevious: true })}
        data-testid="recompact-button"
        title={
          (view?.audit ?? null) !== null
            ? "The audit shows a compaction the file recorded: choose Strategies on the timeline to compact this session, then again"
            : "Runs the strategy again on top of the result on screen, as an agent does at its next compaction: every recovery id and hash of the earlier round must survive."
        }
      >
        Compact again (round {(view?.round ?? 0) + 2})
      </button>
    </>
  );
}
