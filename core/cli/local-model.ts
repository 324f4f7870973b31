/**
 * The local reader's runtime in the CLI: a GGUF model file on disk, run by
 * node-llama-cpp (llama.cpp's prebuilt CPU binaries, nothing fetched, no
 * server). Loaded lazily: only `checkride --reader local` pays for it.
 * Every way a model file can be unusable gets one clear error before or
 * instead of llama.cpp's own.
 */
import { openSync, readSync, closeSync, statSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";
import { basename } from "node:path";
import type { Completion, LocalModel } from "../checkride/local-model/reader.ts";
import { FileError } from "./file-error.ts";
import { DEFAULT_WINDOW, ggufHeaderProblem, MIN_WINDOW, quantizationName } from "../checkride/local-model/gguf.ts";

export interface LocalModelOptions {
  contextSize?: number;
}

const RUNTIME = "node-llama-cpp 3.21.1 (CPU)";

/** "GGUF" and the version: a file that is not a model says so before llama.cpp reads it. */
function checkGgufHeader(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw new FileError(path, 0, `cannot open the model file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const head = new Uint8Array(8);
  const read = readSync(fd, head, 0, 8, 0);
  closeSync(fd);
  const problem = ggufHeaderProblem(head.subarray(0, read));
  if (problem) throw new FileError(path, 0, problem);
}

export async function loadLocalModel(path: string, options: LocalModelOptions = {}): Promise<LocalModel> {
  checkGgufHeader(path);
  const bytes = statSync(path).size;
  if (bytes > totalmem())
    throw new FileError(path, 0, `the model (${(bytes / 2 ** 30).toFixed(1)} GiB) is larger than this machine's memory (${(totalmem() / 2 ** 30).toFixed(1)} GiB)`);
  const llamaCpp = await import("node-llama-cpp");
  // llama.cpp's own complaints are kept, not printed: the one error line below quotes the first of them.
  const complaints: string[] = [];
  const llama = await llamaCpp.getLlama({
    gpu: false,
    build: "never",
    logLevel: llamaCpp.LlamaLogLevel.error,
    logger: (_level, message) => void complaints.push(message.trim()),
  });
  let model: Awaited<ReturnType<typeof llama.loadModel>>;
  try {
    model = await llama.loadModel({ modelPath: path });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof llamaCpp.InsufficientMemoryError) throw new FileError(path, 0, `not enough memory to load the model: ${message}`);
    const said = complaints.find((line) => line !== "") ?? message;
    throw new FileError(path, 0, `llama.cpp cannot load it (a damaged or unsupported GGUF file?): ${said.replace(/^\S+: /, "")}`);
  }
  const trained = model.trainContextSize;
  if (trained < MIN_WINDOW) {
    await model.dispose();
    throw new FileError(path, 0, `the model's window is ${trained} tokens; the checkride needs at least ${MIN_WINDOW}`);
  }
  const contextSize = Math.min(trained, options.contextSize ?? DEFAULT_WINDOW);
  if (contextSize < MIN_WINDOW) throw new FileError(path, 0, `--context-size ${contextSize} is below the ${MIN_WINDOW} tokens the checkride needs`);
  // One thread per core this process may use: llama.cpp's default counted the host's cores, and on a
  // 2-core container its 4 threads made each answer token 250 ms instead of 10 (measured on the test model).
  const threads = availableParallelism();
  const context = await model.createContext({ contextSize, threads });
  const sequence = context.getSequence();
  const completion = new llamaCpp.LlamaCompletion({ contextSequence: sequence });
  const metadata = model.fileInfo.metadata as { general?: { name?: string; file_type?: number } };
  return {
    identity: {
      name: metadata.general?.name ?? basename(path),
      file: basename(path),
      quantization: quantizationName(metadata.general?.file_type),
      contextSize,
      runtime: `${RUNTIME}, ${threads} thread${threads === 1 ? "" : "s"}`,
    },
    countTokens: (text) => model.tokenize(text).length,
    async complete(prompt, maxTokens): Promise<Completion> {
      const started = performance.now();
      // Greedy (temperature 0): the same model on the same context answers the same, so a score can be re-run.
      const text = await completion.generateCompletion(prompt, { maxTokens, temperature: 0 });
      return { text, promptTokens: model.tokenize(prompt).length, answerTokens: model.tokenize(text).length, ms: Math.round(performance.now() - started) };
    },
    async dispose() {
      completion.dispose();
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}
