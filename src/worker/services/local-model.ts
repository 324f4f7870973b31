/**
 * The local reader's runtime in the app: a GGUF file the user picked, run by
 * wllama (llama.cpp compiled to WebAssembly) from the session worker, so the
 * checkride grades it in the same place and the same way as the CLI's
 * node-llama-cpp. The model is read from the File itself: nothing is
 * fetched, nothing leaves the machine. Multi-threaded only where the page
 * is cross-origin isolated (SharedArrayBuffer); single-threaded otherwise,
 * and the runtime line says which.
 */
// The built module and its declarations (the package root holds its TypeScript sources).
import { Wllama } from "@wllama/wllama/esm/index.js";
import singleThreadWasm from "@wllama/wllama/esm/single-thread/wllama.wasm?url";
import multiThreadWasm from "@wllama/wllama/esm/multi-thread/wllama.wasm?url";
import type { Completion, LocalModel } from "../../../core/checkride/local-model/reader.ts";
import { DEFAULT_WINDOW, ggufHeaderProblem, MIN_WINDOW, quantizationName } from "../../../core/checkride/local-model/gguf.ts";

/** wllama reads a model as ArrayBuffers, which stop at 2 GB a piece. */
const MAX_FILE_BYTES = 2 ** 31 - 1;
const RUNTIME = "wllama 2.4.0 (llama.cpp in WebAssembly)";

/** One model at a time, kept while the user checkrides with the same file. */
let loaded: { key: string; model: Promise<LocalModel> } | null = null;

const keyOf = (file: File) => `${file.name}\0${file.size}\0${file.lastModified}`;

/** The model of this File, loaded once; another File unloads the one before. */
export function browserLocalModel(file: File): Promise<LocalModel> {
  const key = keyOf(file);
  if (loaded?.key === key) return loaded.model;
  const previous = loaded;
  const model = (async () => {
    if (previous) await (await previous.model.catch(() => null))?.dispose();
    return loadModel(file);
  })();
  loaded = { key, model };
  // A failed load is not kept: picking the file again tries again.
  model.catch(() => {
    if (loaded?.key === key) loaded = null;
  });
  return model;
}

/**
 * wllama resolves its WebAssembly's URL against `document.baseURI`, which a
 * worker has not: the worker's own location stands in (the URLs it is given
 * are absolute already). Nothing else in the session worker reads `document`.
 */
function giveWorkerABaseUri(): void {
  const scope = globalThis as { document?: { baseURI: string } };
  if (typeof scope.document === "undefined") scope.document = { baseURI: self.location.href };
}

async function loadModel(file: File): Promise<LocalModel> {
  const problem = ggufHeaderProblem(new Uint8Array(await file.slice(0, 8).arrayBuffer()));
  if (problem) throw new Error(`${file.name}: ${problem}`);
  if (file.size > MAX_FILE_BYTES)
    throw new Error(`${file.name} is ${(file.size / 2 ** 30).toFixed(1)} GB; the browser reads at most 2 GB in one piece (use the CLI's --reader local for it)`);
  const multiThread = typeof crossOriginIsolated !== "undefined" && crossOriginIsolated;
  const threads = multiThread ? Math.max(1, navigator.hardwareConcurrency || 1) : 1;
  giveWorkerABaseUri();
  const absolute = (url: string) => new URL(url, self.location.href).href;
  const wllama = new Wllama({ "single-thread/wllama.wasm": absolute(singleThreadWasm), "multi-thread/wllama.wasm": absolute(multiThreadWasm) }, { suppressNativeLog: true });
  try {
    await wllama.loadModel([file], { n_ctx: DEFAULT_WINDOW, n_threads: threads });
  } catch (error) {
    await wllama.exit().catch(() => undefined);
    throw new Error(
      `llama.cpp cannot load ${file.name} (a damaged or unsupported GGUF file, or too big for this tab's memory?): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const info = wllama.getLoadedContextInfo();
  if (info.n_ctx_train < MIN_WINDOW) {
    await wllama.exit();
    throw new Error(`${file.name}: the model's window is ${info.n_ctx_train} tokens; the checkride needs at least ${MIN_WINDOW}`);
  }
  const contextSize = Math.min(info.n_ctx, info.n_ctx_train);
  const runtime = `${RUNTIME}, ${wllama.isMultithread() ? `${wllama.getNumThreads()} threads` : "single-threaded: the page is not cross-origin isolated"}`;
  return {
    identity: { name: info.metadata["general.name"] || file.name, file: file.name, quantization: quantizationName(info.metadata["general.file_type"]), contextSize, runtime },
    countTokens: async (text) => (await wllama.tokenize(text)).length,
    async complete(prompt, maxTokens): Promise<Completion> {
      const started = performance.now();
      // Greedy (temperature 0): the same model on the same context answers the same. useCache keeps the shared context evaluated between probes.
      const text = await wllama.createCompletion(prompt, { nPredict: maxTokens, sampling: { temp: 0 }, useCache: true });
      const ms = Math.round(performance.now() - started);
      const [promptTokens, answerTokens] = await Promise.all([wllama.tokenize(prompt), wllama.tokenize(text)]);
      return { text, promptTokens: promptTokens.length, answerTokens: answerTokens.length, ms };
    },
    dispose: () => wllama.exit(),
  };
}
