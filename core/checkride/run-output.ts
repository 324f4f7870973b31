/**
 * A shell run's output as the terminal showed it. Codex rollouts of 2025 record a shell call's
 * output as JSON (`{"output":"…","metadata":{"exit_code":0,…}}`), and many tools colour their lines
 * with ANSI escapes (`\u001b[32mCREATE\u001b[39m …`): the checks read the lines themselves.
 */
import { textOf, type Message } from "../model.ts";
import { looksLikeFolder } from "./shell-writes.ts";

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

export function runOutput(result: Message): string {
  const text = textOf(result);
  return unwrapped(text).replace(ANSI, "");
}

function unwrapped(text: string): string {
  if (!text.startsWith('{"output":')) return text;
  try {
    const value = JSON.parse(text) as { output?: unknown };
    return typeof value.output === "string" ? value.output : text;
  } catch {
    return text;
  }
}

/**
 * Files a generator says it created or changed, in its own output (LABELS.md: files "a script the
 * agent ran" wrote, "from its output where it says so"): Angular's and Nx's schematics
 * (`CREATE src/app/app.ts (225 bytes)`, `UPDATE angular.json (2680 bytes)`), Rails', Thor's and
 * Yeoman's generators (`      create  app/models/user.rb`), `npm init` (`Wrote to /w/package.json:`).
 */
export function filesTheOutputCreated(output: string): string[] {
  const files: string[] = [];
  for (const match of output.matchAll(/^(?:CREATE|UPDATE) (\S+) \(\d+ bytes\)\s*$/gm)) files.push(match[1]!);
  // Rails' and Thor's generators: "      create  app/models/user.rb", and the folders they make ("create  app/views/users"), no files.
  for (const match of output.matchAll(/^\s+(?:create|force)\s{2,}(\S*[./]\S*)\s*$/gm)) if (!match[1]!.endsWith("/") && !looksLikeFolder(match[1]!)) files.push(match[1]!);
  for (const match of output.matchAll(/^Wrote to (\S+?):?\s*$/gm)) files.push(match[1]!);
  // shadcn's `init` and `add`: "Writing components.json.", and "✔ Created 10 files:" over a "  - path" list.
  for (const match of output.matchAll(/^\W*Writing (\S+\.\w+)\.?\s*$/gm)) files.push(match[1]!);
  for (const list of output.matchAll(/^\W*Created \d+ files?:\s*\n((?:[ \t]+- \S+[ \t]*(?:\n|$))+)/gm)) for (const item of list[1]!.matchAll(/- (\S+)/g)) files.push(item[1]!);
  return files;
}
