import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/**
 * Nothing leaves the machine: the built page may reach only its own origin.
 * The policy goes into the built index.html (the dev server's hot-reload
 * preamble is an inline script, so `npm start` runs without it).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self'",
  "font-src 'self'",
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
