/**
 * A full garbage collection now and then during the CLI's streamed reads.
 * A streamed compaction's live memory is its outline and one piece, but each
 * piece leaves its parsed records, messages and JSON behind, and V8 given
 * the large heap the launcher grants a large input (bin/heap.mjs) lets that
 * garbage pile up before it collects: compacting the 1 GB bench session
 * without token counts peaked at 1.2–2.2 GB of RSS over runs, with about
 * 0.3 GB live. Collecting after every 256 MB read held it at 1.0 GB at no
 * measurable cost; every 64 MB held 0.6 GB for a fifth more CPU time
 * (docs/performance.md). Node only: `gc` is exposed at run time, as Node's
 * v8 documentation shows.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const COLLECT_EVERY = 256 * 1024 * 1024;

let gc: (() => void) | undefined;

/** Counts bytes read and collects each time another COLLECT_EVERY have been. */
export class PeriodicCollector {
  private sinceLast = 0;

  read(bytes: number): void {
    this.sinceLast += bytes;
    if (this.sinceLast < COLLECT_EVERY) return;
    this.sinceLast = 0;
    collectGarbage();
  }
}

function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  }
  gc();
}
