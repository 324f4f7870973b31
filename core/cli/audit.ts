/**
 * `audit <file> [--json]`: every compaction the file records on the branch,
 * audited at its moment (core/audit). One row per compaction; `--json`
 * prints `{compactions:[…]}` in the shape of core/audit/rows.ts. A file
 * without compactions prints an empty list and succeeds.
 */
import { compactionsUnrecorded } from "../compactions/unrecorded.ts";
import { auditSession } from "../audit/session.ts";
import { compactionLine, compactionRow } from "../audit/rows.ts";
import { AUDIT_VS_CHECKRIDE } from "../audit/fact-ledger.ts";
import { leafFlag, readerFlags, type ParsedArgs } from "./flags.ts";
import { memoryFlag, readSessionFile } from "./input.ts";
import { isDirectory } from "./folder.ts";
import { runLibraryAudit } from "./library.ts";
import { loadLocalModel } from "./local-model.ts";
import { runFollow } from "./follow.ts";
import { writeOutput } from "./output.ts";

export async function runAudit(args: ParsedArgs): Promise<number> {
  // A folder is a library: every session in it (core/library), one JSON line per row with --json.
  const target = args.positional[0];
  if (target !== undefined && isDirectory(target)) return runLibraryAudit(args, target);
  if (args.flags.has("follow")) return runFollow(args, "audit");
  const { session } = readSessionFile(args);
  const { reader, endpoint, local } = readerFlags(args);
  const leafId = leafFlag(args, session);
  const localModel = local ? await loadLocalModel(local.modelPath, local) : undefined;
  let audit: Awaited<ReturnType<typeof auditSession>>;
  try {
    audit = await auditSession(session, { leafId, reader, endpoint, localModel, memory: memoryFlag(args) });
  } finally {
    await localModel?.dispose();
  }
  if (args.flags.has("json")) {
    writeOutput(JSON.stringify({ compactions: audit.compactions.map(compactionRow) }, null, 2), undefined);
    return 0;
  }
  if (audit.compactions.length === 0) {
    const unrecorded = compactionsUnrecorded(session);
    writeOutput(unrecorded ? `no recorded compaction on this branch: ${unrecorded}` : "no recorded compaction on this branch", undefined);
    return 0;
  }
  const label =
    reader === "literal"
      ? "facts present in context (literal reader)"
      : reader === "local" && localModel
        ? `answered by ${localModel.identity.name} (${localModel.identity.quantization}, ${localModel.identity.contextSize}-token window, on this machine)`
        : "answered by the model (endpoint reader)";
  writeOutput(
    [`${audit.compactions.length} recorded compaction(s); facts: ${label}, known at each compaction`, ...audit.compactions.map(compactionLine), "", AUDIT_VS_CHECKRIDE].join("\n"),
    undefined,
  );
  return 0;
}
