import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/**
 * Nothing leaves the machine. The built index.html carries this policy for
 * everything except connections; src/csp.ts adds `connect-src 'self'` (plus
 * any model endpoint the user allowed) before the worker starts. The dev
 * server's hot-reload preamble is an inline script, so `npm start` runs
 * without the static part.
 */
export const CONTENT_SECURITY_POLICY = [
  // 'wasm-unsafe-eval' compiles WebAssembly (the local reader's llama.cpp) and nothing else: no eval of scripts.
  "script-src 'self' 'wasm-unsafe-eval'",
  // blob: for the worker llama.cpp's WebAssembly build starts from its own code; it can fetch nothing the policy does not allow.
  "worker-src 'self' blob:",
  "img-src 'self' data: blob:",
  "style-src 'self'",
  "font-src 'self'",
  "media-src 'self'",
  "frame-src 'none'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

function contentSecurityPolicy(): Plugin {
  return {
    name: "session-inspector-csp",
    apply: "build",
    transformIndexHtml(html) {
      return html.replace("<head>", `<head>\n    <meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}" />`);
    },
  };
}

export default defineConfig({
  plugins: [react(), contentSecurityPolicy()],
  worker: { format: "es" },
  build: { target: "es2022", sourcemap: true },
  server: { port: 5173 },
  preview: { port: 4173 },
});
