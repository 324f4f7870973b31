/** The checkride's status lines: what the score means, progress with Cancel, and the user's edits of the key. */
import { cancelCheckride, resetKeyEdits, useApp } from "../../store/store.ts";

export function ReaderExplanation({ reader }: { reader: "literal" | "endpoint" | "local" }) {
  return (
    <p className="dim small-text reader-explanation" data-testid="reader-explanation">
      Facts come from the record (tool calls, exit codes, what the user wrote, your memory.md), never from a model; a probe without ground truth is skipped.{" "}
      {reader === "literal" ? (
        <>
          <strong>Facts present in context</strong>: the built-in literal reader searches the active context for each fact and quotes where it stands. A pass means the words are
          there for a model to read, not that a model would recall or use them; for that, ask a model at an endpoint you run.
        </>
      ) : (
        <>
          <strong>A model's recall</strong>: the model reads only the active context and answers each question; its answer is graded against the same key, and counted as correct,
          "don't know" or <strong>confidently wrong</strong> (it asserts what the key does not hold: it would mislead the next agent).
          {reader === "local" ? " The model's name, quantization and window are shown beside its score." : null}
        </>
      )}
    </p>
  );
}

export function CheckrideProgress() {
  const task = useApp((s) => s.checkride.task);
  if (!task) return null;
  return (
    <div className="banner info checkride-progress" role="status" data-testid="checkride-progress">
      <span>
        Checkride: {task.label || "starting"} ({Math.min(task.done, task.total)} of {task.total} strategies)
      </span>{" "}
      <progress max={Math.max(1, task.total)} value={task.done} />{" "}
      <button type="button" className="small" data-testid="checkride-cancel" onClick={cancelCheckride}>
        Cancel
      </button>
    </div>
  );
}

export function KeyEditsLine() {
  const edits = useApp((s) => s.checkride.edits);
  const results = useApp((s) => s.checkride.results);
  if (edits.struck.length === 0 && edits.added.length === 0) return null;
  const stale = results !== null && !results.some((r) => r.probes.some((p) => p.edited));
  return (
    <div className="small-text key-edits-line" data-testid="key-edits">
      <span className="edited-tag">answer key edited by you</span> {edits.struck.length} struck, {edits.added.length} added (kept in the link and the exported report).{" "}
      {stale ? <span>Run the checkride to grade with the edited key. </span> : null}
      <button type="button" className="link-button" onClick={resetKeyEdits}>
        undo all edits
      </button>
    </div>
  );
}
