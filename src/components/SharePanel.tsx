/**
 * Before anything leaves the machine: the possible secrets found in the
 * session, each masked unless the user keeps it, then the HTML audit report,
 * the Markdown scorecard or the checkpoint, all with the same masking.
 */
import { useRef } from "react";
import { downloadReport, exportRedacted, setShare, useApp } from "../store/store.ts";
import { download } from "./download.ts";
import { useDismiss } from "./dismiss.ts";

const closeShare = () => setShare({ open: false });
const SHARE_INSIDE = "[data-testid=share-toggle], [data-testid=split-handle], [data-testid=help-toggle], .overlay";

export function SharePanel() {
  const share = useApp((s) => s.share);
  const panel = useRef<HTMLElement>(null);
  // A press outside closes it; its own button, the split's handle and help (which stacks over it) are not
  // outside. Esc is in the app's order, under help.
  useDismiss({ open: share.open, ref: panel, onDismiss: closeShare, ignoreSelector: SHARE_INSIDE });
  if (!share.open) return null;
  const findings = share.findings ?? [];
  const maskedCount = findings.filter((f) => share.masked[f.id]).length;
  return (
    <section className="checkride" data-testid="share-panel" aria-label="Share" ref={panel}>
      <header className="detail-head">
        <h2>Share: review what could be secret, then download</h2>
        <button type="button" className="small" onClick={() => setShare({ open: false })}>
          Close
        </button>
      </header>
      {share.scanning ? <p aria-busy="true">Scanning the session for keys, tokens, passwords and e-mail addresses…</p> : null}
      {share.error ? (
        <div className="banner error" role="alert">
          {share.error}
        </div>
      ) : null}
      {share.findings && findings.length === 0 ? <p>The scan found nothing that looks like a secret (API keys, tokens, JWTs, private keys, passwords, e-mail addresses).</p> : null}
      {findings.length > 0 ? (
        <>
          <p>
            {findings.length} possible secret{findings.length === 1 ? "" : "s"} found; <strong>{maskedCount} will be masked</strong> in the report, the scorecard and the export
            (the same placeholder everywhere). Untick one to keep it.
          </p>
          <table className="probes findings">
            <thead>
              <tr>
                <th>mask</th>
                <th>kind</th>
                <th>value (preview)</th>
                <th>where</th>
              </tr>
            </thead>
            <tbody>
              {findings.map((f) => (
                <tr key={f.id} data-testid="finding-row" data-finding-id={f.id} data-masked={String(share.masked[f.id] === true)}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Mask ${f.id}`}
                      checked={share.masked[f.id] === true}
                      onChange={(e) => setShare({ masked: { ...share.masked, [f.id]: e.target.checked } })}
                    />
                  </td>
                  <td>{f.kind}</td>
                  <td className="mono">{f.preview}</td>
                  <td>
                    {f.occurrences}× in {f.messageIds.length} message{f.messageIds.length === 1 ? "" : "s"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      <div className="checkride-controls">
        <button
          type="button"
          className="primary"
          disabled={share.scanning || share.busy !== null}
          onClick={() => void downloadReport("html").then(download)}
          data-testid="download-report"
        >
          Download the audit report (HTML)
        </button>
        <button type="button" disabled={share.scanning || share.busy !== null} onClick={() => void downloadReport("md").then(download)}>
          Download the scorecard (Markdown)
        </button>
        <button type="button" disabled={share.scanning || share.busy !== null} onClick={() => void exportRedacted().then(download)}>
          Export the checkpoint{maskedCount > 0 ? " (masked)" : ""}
        </button>
        {share.busy ? <span aria-live="polite">{share.busy}</span> : null}
      </div>
      <p className="dim small-text">
        The report is one file that opens offline in any browser and requests nothing. It includes the stats, the checkride of every strategy you chose in the checkride panel, the
        list of what was moved out, and the messages side by side.
      </p>
    </section>
  );
}
