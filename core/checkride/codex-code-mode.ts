/**
 * Codex's code mode: the model calls one `exec` tool whose input is a
 * JavaScript program that calls the real tools (`tools.exec_command({...})`,
 * often several in a `Promise.all`) and may hold an apply_patch text in a
 * string literal. A long program answers "Script running with cell ID N" and
 * its output comes back through later `wait({cell_id})` calls. The commands
 * and patches are read from the program's own literals; nothing is evaluated.
 */

/** The JSON object literal that starts at `open` (a "{"), or undefined when it does not parse. */
function objectAt(source: string, open: number): unknown {
  let depth = 0;
  let inString = false;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      try {
        return JSON.parse(withQuotedKeys(source.slice(open, i + 1)));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * A JavaScript object literal's bare keys quoted (`{cmd:"ls"}` → `{"cmd":"ls"}`), so that JSON reads it:
 * the model writes keys either way. Text inside strings is left as it is.
 */
const BARE_KEY = /(\s*)([A-Za-z_$][\w$]*)(\s*):/y;

function withQuotedKeys(literal: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < literal.length; i++) {
    const c = literal[i]!;
    if (inString) {
      out += c;
      if (c === "\\") out += literal[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{" || c === ",") {
      // Read where it stands (sticky), not on a copy of the rest: a long literal with many keys stays linear.
      BARE_KEY.lastIndex = i + 1;
      const key = BARE_KEY.exec(literal);
      if (key) {
        out += `${c}${key[1]}"${key[2]}"${key[3]}:`;
        i += key[0].length;
        continue;
      }
    }
    out += c;
  }
  return out;
}

/** The shell commands a code-mode program runs through `tools.exec_command`, in program order. */
export function codeModeCommands(source: string): string[] {
  const commands: string[] = [];
  for (const match of source.matchAll(/tools\.exec_command\(\s*\{/g)) {
    const args = objectAt(source, match.index + match[0].length - 1);
    const cmd = typeof args === "object" && args !== null ? (args as { cmd?: unknown }).cmd : undefined;
    if (typeof cmd === "string" && cmd !== "") commands.push(cmd);
  }
  return commands;
}

/** The apply_patch texts held in a program's double-quoted string literals. */
export function codeModePatches(source: string): string[] {
  const patches: string[] = [];
  for (const match of source.matchAll(/"\*\*\* Begin Patch/g)) {
    let end = match.index + 1;
    while (end < source.length && source[end] !== '"') end += source[end] === "\\" ? 2 : 1;
    try {
      patches.push(JSON.parse(source.slice(match.index, end + 1)) as string);
    } catch {
      // Not a JSON-compatible literal: no patch read rather than a guessed one.
    }
  }
  return patches;
}

/** "Script running with cell ID 41": the cell a later `wait` call finishes. */
export function runningCell(output: string): string | undefined {
  return /^Script running with cell ID (\S+)/.exec(output)?.[1];
}
