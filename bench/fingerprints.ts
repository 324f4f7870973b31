/**
 * The library's audit-input fingerprints on an ugly shape: a long branch with many recorded
 * compactions, against the floor of JSON.stringify of every message once, and against the
 * first version (each compaction's branch prefix joined and hashed again). No figure is asserted.
 *
 *   npm run bench:fingerprints
 */
import { compactionFingerprints, textDigest } from "../core/library/audit-inputs.ts";
import { sha256HexSync } from "../core/sha256.ts";
const n = 100_000,
  k = 1000;
const branch = Array.from({ length: n }, (_, i) => ({
  id: `m${i}`,
  role: "user" as const,
  meta: {},
  blocks: [{ type: "text" as const, text: `message ${i} ` + "x".repeat(40) }],
  line: i + 1,
}));
const compactions = Array.from({ length: k }, (_, j) => ({
  index: j + 1,
  line: Math.floor(((j + 1) * n) / k),
  entryId: `c${j}`,
  kind: "pi-compaction",
  trigger: "auto",
  tokensBefore: null,
  tokensAfter: null,
  summary: null,
  before: branch.slice(0, 5),
  after: branch.slice(0, 2),
  droppedMessageIds: [],
})) as any;
let t = performance.now();
compactionFingerprints(branch as any, compactions, { path: "p", format: "pi", cwd: "/w", sessionIds: [] });
console.log(`one pass: ${n} messages, ${k} compactions: ${(performance.now() - t).toFixed(0)} ms`);
// The previous code, for comparison: the branch prefix's digests joined and hashed once per compaction.
t = performance.now();
const d = new Map(branch.map((m) => [m, textDigest(JSON.stringify(m))]));
for (const c of compactions)
  sha256HexSync(
    new TextEncoder().encode(
      branch
        .filter((m) => m.line < c.line)
        .map((m) => d.get(m)!)
        .join("\n"),
    ),
  );
console.log(`per compaction join (before): ${(performance.now() - t).toFixed(0)} ms`);
t = performance.now();
for (const m of branch) JSON.stringify(m);
console.log(`floor (JSON.stringify of every message once): ${(performance.now() - t).toFixed(0)} ms`);
