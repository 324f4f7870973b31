/**
 * Lets a benchmark run in Node import the worker's code, which names a
 * bundled asset as Vite does (`sql.js/dist/sql-wasm-browser.wasm?url`): the
 * import gives the asset's path, as Vite's gives its URL. The benchmarks
 * never open a SQLite file, so the path is never fetched.
 */
import { register } from "node:module";

register(
  "data:text/javascript," +
    encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier.endsWith("?url")) return { url: "asset-url:" + specifier.slice(0, -4), shortCircuit: true };
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (url.startsWith("asset-url:")) return { format: "module", source: "export default " + JSON.stringify(url.slice(10)) + ";", shortCircuit: true };
  return next(url, context);
}`),
);
