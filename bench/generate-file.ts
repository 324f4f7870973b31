/**
 * Writes the generated Pi session (bench/generate.ts) of about SIZE_MB
 * megabytes to FILE, a line at a time, so any size can be made (a 1 GB
 * session is past V8's string limit): `npm run generate -- 1000 /tmp/1gb.jsonl`;
 * `--format claude` writes the same turns as a Claude Code transcript.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { claudeSessionLines, piSessionLines } from "./generate.ts";

const args = process.argv.slice(2);
const formatAt = args.indexOf("--format");
const format = formatAt === -1 ? "pi" : args.splice(formatAt, 2)[1];
const [sizeArg, file] = args;
const megabytes = Number(sizeArg);
if (!file || !(megabytes > 0) || (format !== "pi" && format !== "claude")) {
  process.stderr.write("usage: npm run generate -- SIZE_MB FILE [--format pi|claude]\n");
  process.exit(2);
}
const fd = openSync(file, "w");
let batch: string[] = [];
let batchLength = 0;
const flush = () => {
  writeSync(fd, batch.join(""));
  batch = [];
  batchLength = 0;
};
for (const line of (format === "claude" ? claudeSessionLines : piSessionLines)(megabytes * 1e6)) {
  batch.push(line, "\n");
  batchLength += line.length + 1;
  if (batchLength > 4e6) flush();
}
flush();
closeSync(fd);
