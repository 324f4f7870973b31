import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./components/App.tsx";
import { DEMOS, demoSource } from "./demos.ts";
import { connect, loadSource, parseDeepLink, setKeyEdits, setPendingLink } from "./store/store.ts";
import { WorkerClient } from "./worker/client.ts";
import "./styles.css";
import { installConnectPolicy } from "./csp.ts";

// First: where the page may connect, before anything can.
installConnectPolicy();

connect(new WorkerClient(() => new Worker(new URL("./worker/session.worker.ts", import.meta.url), { type: "module", name: "session-worker" })));

const link = parseDeepLink(window.location.hash);
setPendingLink(link);
if (link.edits) setKeyEdits(link.edits);
// Open on something useful: the first demo, unless the link names a file the user has to drop.
if (!link.file) {
  const demo = DEMOS[0]!;
  void loadSource(demoSource(demo));
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
