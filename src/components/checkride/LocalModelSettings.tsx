/**
 * The local reader's one setting: a GGUF model file picked from disk. It is
 * read in the session worker by llama.cpp compiled to WebAssembly; nothing
 * is fetched or sent anywhere. Says what it will cost before it runs.
 */
import { setCheckrideSettings, useApp } from "../../store/store.ts";
import { formatBytes } from "../format.ts";

export function LocalModelSettings() {
  const file = useApp((s) => s.checkride.settings.localModel);
  const isolated = typeof crossOriginIsolated !== "undefined" && crossOriginIsolated;
  return (
    <div className="endpoint-settings local-model-settings" data-testid="local-model-settings">
      <label className="field">
        <span>Model file (.gguf)</span>
        <input type="file" accept=".gguf" aria-label="Model file (.gguf)" onChange={(e) => setCheckrideSettings({ localModel: e.target.files?.[0] ?? null })} />
      </label>
      <p className="dim small-text">
        {file ? (
          <>
            <strong>{file.name}</strong> ({formatBytes(file.size)}) runs here, in this tab: nothing leaves the machine.{" "}
          </>
        ) : (
          "Pick a GGUF model file (a 1–3B model quantized to Q4 or Q5 is a good start); it runs here, in this tab, and nothing leaves the machine. "
        )}
        Each probe is one question with the context; a context longer than the model's window is inconclusive, never a fail.{" "}
        {isolated
          ? "Multi-threaded (this page is cross-origin isolated)."
          : "Single-threaded: this page is not cross-origin isolated, so expect minutes per probe on a real model; the CLI's --reader local uses every core."}
      </p>
    </div>
  );
}
