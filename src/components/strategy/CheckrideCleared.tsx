/** Says why the checkride results went away (a strategy change or compacting again), instead of letting them vanish. */
import { noteCheckrideCleared, useTokens } from "../../store/store.ts";

export function CheckrideCleared() {
  const reason = useTokens((s) => s.clearedCheckride);
  if (!reason) return null;
  return (
    <div className="banner info" role="status" data-testid="checkride-cleared">
      The earlier checkride results were cleared because {reason}: they described the previous active context. Run the checkride again for this one.{" "}
      <button type="button" className="link-button" onClick={() => noteCheckrideCleared(null)}>
        Dismiss
      </button>
    </div>
  );
}
