/** What following found that the user must see: a compaction just recorded (one click to its audit), a rewrite, why it stopped. */
import { auditFollowed, dismissFollowNotice, useFollow } from "../../store/store.ts";
import { formatCount } from "../format.ts";

export function FollowBanners() {
  const notices = useFollow((s) => s.notices);
  const note = useFollow((s) => s.note);
  const error = useFollow((s) => s.error);
  return (
    <>
      {notices.map((notice) => (
        <div key={notice.index} className="banner info follow-notice" role="status" data-testid="follow-notice">
          <span>
            <strong>Compaction #{notice.index} recorded</strong> at line {formatCount(notice.line)}
            {notice.trigger ? ` (${notice.trigger})` : ""}:{" "}
            {notice.tokensBefore !== null && notice.tokensAfter !== null
              ? `${formatCount(notice.tokensBefore)} → ${formatCount(notice.tokensAfter)} tokens, the file's own figures`
              : notice.tokensBefore !== null
                ? `${formatCount(notice.tokensBefore)} tokens before, the file's own figure (it records none after)`
                : "the file records no token figures for it"}
            ; {formatCount(notice.dropped)} {notice.dropped === 1 ? "message" : "messages"} left the context.
          </span>
          <button type="button" className="small primary" onClick={() => void auditFollowed(notice.index)} data-testid="follow-audit">
            Audit it
          </button>
          <button type="button" className="small" onClick={() => dismissFollowNotice(notice.index)} aria-label={`Dismiss the notice of compaction #${notice.index}`}>
            ×
          </button>
        </div>
      ))}
      {note ? (
        <div className="banner info" role="status" data-testid="follow-note">
          {note}
          <button type="button" className="small" onClick={() => useFollow.setState({ note: null })} aria-label="Dismiss">
            ×
          </button>
        </div>
      ) : null}
      {error ? (
        <div className="banner error" role="alert" data-testid="follow-error">
          {error}
          <button type="button" className="small" onClick={() => useFollow.setState({ error: null })} aria-label="Dismiss">
            ×
          </button>
        </div>
      ) : null}
    </>
  );
}
