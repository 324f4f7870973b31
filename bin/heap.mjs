/**
 * Room for large sessions. Node's default heap (about 4 GB here) is too small
 * for some commands on a large session: the report of a 1 GB session peaked at
 * 6.1 GB. When the files on the command line are large for the heap, the CLI
 * runs in a child Node with a heap sized from the machine's memory; if even
 * that runs out, V8's fatal dump is replaced by one line that says so.
 * Small inputs keep the in-process start (no second Node, ~40 ms saved).
 */
import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { constants, totalmem } from "node:os";
import { getHeapStatistics } from "node:v8";

const HEAP_FLAG = "--max-old-space-size";
/** Measured peaks are 1.4-6.1× the session's bytes (load, compact, report at 1 GB); 8× leaves margin. */
export const BYTES_PER_INPUT_BYTE = 8;

/**
 * `verify` reads its checkpoint in pieces and keeps ids and hashes, not
 * payloads: a 1.09 GB checkpoint verified in a 400 MB heap (431 MB peak),
 * so it needs a child only for checkpoints several times Node's default heap.
 */
const BYTES_PER_INPUT_BYTE_BY_COMMAND = { verify: 1 };

/**
 * Heap bytes to allow per byte of input for a command line's command.
 * @param {readonly string[]} args
 */
export function bytesPerInputByte(args) {
  return BYTES_PER_INPUT_BYTE_BY_COMMAND[/** @type {"verify"} */ (args[0])] ?? BYTES_PER_INPUT_BYTE;
}

/**
 * Bytes of the regular files named on the command line (flags' values
 * included: an --output that exists is small, a --previous checkpoint is read).
 * @param {readonly string[]} args
 */
export function inputBytes(args) {
  let bytes = 0;
  for (const arg of args) {
    const value = arg.startsWith("--") && arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : arg;
    if (value === "" || value.startsWith("-")) continue;
    try {
      const stat = statSync(value);
      if (stat.isFile()) bytes += stat.size;
    } catch {
      // Not a file: a command, a strategy name, a number.
    }
  }
  return bytes;
}

/**
 * The heap to give a child in MB, or null to run in this process: when the
 * user chose a heap already, when the inputs fit the current one, or when the
 * machine has no more to give.
 * @param {{ inputBytes: number, heapLimitBytes: number, memoryBytes: number, userChoseHeap: boolean, perInputByte?: number }} facts
 * @returns {number | null}
 */
export function heapForInputs({ inputBytes, heapLimitBytes, memoryBytes, userChoseHeap, perInputByte = BYTES_PER_INPUT_BYTE }) {
  if (userChoseHeap || inputBytes * perInputByte <= heapLimitBytes) return null;
  const available = Math.floor((memoryBytes * 0.75) / 1048576);
  return available > heapLimitBytes / 1048576 ? available : null;
}

/**
 * Runs the bundle in a child with `heapMb` of heap, passing stdin, stdout and
 * exit code through; stderr is passed through too, except V8's fatal
 * out-of-memory dump, which becomes one line. Resolves to the exit code.
 * @param {string} bundle
 * @param {readonly string[]} args
 * @param {number} heapMb
 * @returns {Promise<number>}
 */
export function runWithHeap(bundle, args, heapMb) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`${HEAP_FLAG}=${heapMb}`, bundle, ...args], {
      stdio: ["inherit", "inherit", "pipe"],
    });
    let outOfMemory = false;
    child.stderr?.on("data", (chunk) => {
      if (outOfMemory) return;
      const text = String(chunk);
      const fatal = text.indexOf("FATAL ERROR:");
      if (fatal < 0 && !text.includes("<--- Last few GCs --->")) {
        process.stderr.write(chunk);
        return;
      }
      outOfMemory = true;
      const before = fatal > 0 ? text.slice(0, fatal) : "";
      if (before.trim() !== "" && !before.includes("<--- Last few GCs --->")) process.stderr.write(before);
    });
    // Ctrl-C reaches the child from the terminal; a signal sent to this process alone is passed on.
    const forward = (/** @type {NodeJS.Signals} */ signal) => child.kill(signal);
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    child.on("close", (code, signal) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      if (outOfMemory || signal === "SIGABRT") {
        process.stderr.write(`error: ran out of memory with a ${heapMb} MB heap (the session is too large for this machine's memory, or set NODE_OPTIONS=${HEAP_FLAG}=<MB>)\n`);
        resolve(2);
        return;
      }
      // Killed by a signal: the shell's convention, 128 + its number.
      resolve(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
    });
  });
}

/** The facts heapForInputs decides from, for this process and machine. */
export function currentHeapFacts(/** @type {readonly string[]} */ args) {
  const userChoseHeap = process.execArgv.some((a) => a.startsWith(HEAP_FLAG)) || (process.env.NODE_OPTIONS ?? "").includes(HEAP_FLAG);
  // A container's limit where there is one (cgroups), else the machine's memory.
  const constrained = process.constrainedMemory?.() ?? 0;
  const memoryBytes = constrained > 0 ? Math.min(constrained, totalmem()) : totalmem();
  return { inputBytes: inputBytes(args), heapLimitBytes: getHeapStatistics().heap_size_limit, memoryBytes, userChoseHeap, perInputByte: bytesPerInputByte(args) };
}
