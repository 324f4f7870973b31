/**
 * Files a shell command writes by its own syntax: output redirection
 * (`> f`, `>> f`, `cat > f <<EOF`), `tee [-a] f`. Only what the command line
 * itself names: a script's writes are not in the record. Quoted text and
 * heredoc bodies are skipped (a `>` there is data, not a redirection), and so
 * are targets that are no file of the work: /dev/…, file descriptors,
 * variables and substitutions.
 */

/** The command with quoted strings blanked and every heredoc body cut off. */
function syntaxOnly(command: string): string {
  let out = "";
  let quote: string | undefined;
  const lines = command.split("\n");
  const kept: string[] = [];
  // A heredoc's body is data: keep each line up to the first one that opens a heredoc.
  for (const line of lines) {
    kept.push(line);
    if (/<<-?\s*['"]?\w+/.test(line)) break;
  }
  const text = kept.join("\n");
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
      out += " ";
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      out += " ";
      continue;
    }
    out += c;
  }
  return out;
}

const REDIRECT = /(?:^|[^<>&\d-])\d?>{1,2}\|?\s*([^\s;&|<>()`$]+)/g;
const TEE = /(?:^|[|;&]\s*)tee\s+((?:-[a-z]+\s+)*)([^\s;&|<>()`$]+)/g;

function isFileTarget(path: string): boolean {
  return path !== "" && !path.startsWith("&") && !path.startsWith("/dev/") && !/^[-=]/.test(path) && !path.includes("*");
}

export function shellWrittenPaths(command: string): string[] {
  const syntax = syntaxOnly(command);
  const paths: string[] = [];
  for (const match of syntax.matchAll(REDIRECT)) if (isFileTarget(match[1]!)) paths.push(match[1]!);
  for (const match of syntax.matchAll(TEE)) if (isFileTarget(match[2]!)) paths.push(match[2]!);
  return [...new Set(paths)];
}
