/**
 * Files a shell command writes by its own syntax (LABELS.md, modified
 * files): output redirection (`> f`, `>> f`, `cat > f <<EOF`), `tee [-a] f`,
 * in-place edits (`sed -i`, `perl -pi`), the file a move, rename or copy
 * writes (`mv`, `git mv`, `cp`, and Windows' `move`, `ren`, `copy`; into a
 * folder, under its own name), the file a download or a converter's output
 * option names (`curl -o`, `pandoc -o`), a file `touch` creates, PowerShell's `Set-Content`, `Add-Content`, `Out-File`, `New-Item`, `Copy-Item`,
 * `Move-Item` and `Rename-Item`, and the files a formatter or fixer rewrites in its writing mode
 * (`prettier --write a.ts`, `eslint --fix a.ts`). A file moved away or deleted is not one the agent
 * wrote (LABELS.md counts files written; one it wrote and then deleted still
 * counts, by its write). Only what the command line itself names: a
 * script's writes are not in the record. Quoted text and heredoc bodies are
 * skipped (a `>` there is data, not a redirection), and so are targets that
 * are no file of the work: /dev/…, `nul`, file descriptors, variables,
 * substitutions, globs, and whole folders (`-r`), which name no file
 * themselves: a folder moved or copied whole is told apart
 * (shellFolderCopies), for the files the session wrote in it.
 */

/**
 * A quoted string, opening quote to closing one (or to the end, left open): single quotes take
 * everything literally, double quotes let a backslash take the next character (or end the text).
 */
const QUOTED = /'[^']*'?|"(?:\\[\s\S]|\\$|[^"\\])*"?/g;

/**
 * The command with quoted strings blanked (each character a space, so offsets hold) and every heredoc
 * body cut off. One replace, not a character at a time: a command can be megabytes (a heredoc written
 * inline, a payload pasted into `echo`), and building it a character at a time spent most of its time
 * collecting garbage (bench/fact-shapes.ts).
 */
export function syntaxOnly(command: string): string {
  // PowerShell's here-strings (@' … '@, @" … "@) are data, like a heredoc's body.
  const lines = command.replace(/@(['"])\r?\n[\s\S]*?\r?\n\1@/g, " ").split("\n");
  const kept: string[] = [];
  // A heredoc's body is data: keep each line up to the first one that opens a heredoc.
  for (const line of lines) {
    kept.push(line);
    if (/<<-?\s*['"]?\w+/.test(line)) break;
  }
  return kept.join("\n").replace(QUOTED, (quoted) => " ".repeat(quoted.length));
}

const DUPLICATED_DESCRIPTOR = /^\d*[<>]&\d*-?$/;
// The target may not run into another redirection: in `> "$F" 2>/dev/null` (the quoted name blanked) "2" is a descriptor.
const REDIRECT = /(?:^|[^<>&\d-])\d?>{1,2}\|?\s*([^\s;&|<>()`$]+)(?![<>&\w])/g;
const TEE = /(?:^|[|;&]\s*)tee\s+((?:-[a-z]+\s+)*)([^\s;&|<>()`$]+)/g;

function isFileTarget(path: string): boolean {
  return (
    path !== "" &&
    !path.startsWith("&") &&
    !path.startsWith("/dev/") &&
    !/^(nul|con)$/i.test(path) &&
    !/^[-=]/.test(path) &&
    !/[*?$`()]/.test(path) &&
    path !== "." &&
    path !== ".." &&
    !path.endsWith("/")
  );
}

/** Files without an extension that are files all the same. */
const EXTENSIONLESS_FILES =
  /^(Makefile|Dockerfile|Containerfile|Justfile|Procfile|Gemfile|Rakefile|Vagrantfile|LICENSE|COPYING|README|CHANGELOG|AUTHORS|NOTICE|VERSION|CODEOWNERS)$/i;

export /** A path without the slashes it ends on (`src/` is `src`). */
function withoutTrailingSlash(path: string): string {
  return path.replace(/[\\/]+$/, "");
}

/** The last name of a path, either slash (`a/b/c.ts`, `a\\b\\c.ts`: `c.ts`). */
function baseName(path: string): string {
  return withoutTrailingSlash(path).replace(/^.*[\\/]/, "");
}

export function looksLikeFolder(path: string): boolean {
  const name = baseName(path);
  return !name.includes(".") && !EXTENSIONLESS_FILES.test(name);
}

/** A `sed` script given without -e (`sed -i s/a/b/ f`): a substitution, or an address and a command. */
const SED_SCRIPT = /^(s(.).*\2.*\2[gipI0-9]*|\d*,?\d*[dpaic].*|\/.*\/[dp])$/;

/** Runners that start a program by name: `pnpm exec prettier …` writes what `prettier …` writes. */
const RUNNERS: Record<string, number> = {
  npx: 1,
  bunx: 1,
  pnpx: 1,
  "pnpm exec": 2,
  "pnpm dlx": 2,
  "yarn dlx": 2,
  "yarn exec": 2,
  "npm exec": 2,
  "uv run": 2,
  "poetry run": 2,
  "pipenv run": 2,
  "bundle exec": 2,
};

/**
 * Formatters and fixers in their writing mode rewrite the files they are given (LABELS.md: files the
 * agent wrote by a program it ran): `prettier --write a.ts`, `oxfmt a.ts` (which writes unless told
 * `--check`), `eslint --fix a.ts`, `black a.py`, `gofmt -w a.go`. The files named only: a folder or
 * `.` names no file, and a check (`--check`, `--list-different`) writes nothing.
 */
function formatterWrites(name: string, options: readonly string[], operands: readonly string[]): string[] | null {
  const has = (...flags: string[]) => options.some((o) => flags.includes(o.replace(/=.*$/, "")));
  const checking = has("--check", "-c", "--list-different", "-l", "--diff", "--dry-run");
  let writes: boolean;
  let files = operands;
  switch (name) {
    case "prettier":
      writes = has("--write", "-w");
      break;
    case "oxfmt":
    case "black":
    case "isort":
    case "rustfmt":
    case "autopep8":
      writes = !checking && (name !== "autopep8" || has("--in-place", "-i"));
      break;
    case "eslint":
    case "oxlint":
    case "stylelint":
    case "markdownlint":
    case "markdownlint-cli2":
      writes = has("--fix");
      break;
    case "biome":
      writes = ["format", "check", "lint"].includes(operands[0] ?? "") && has("--write", "--apply", "--apply-unsafe", "--fix");
      files = operands.slice(1);
      break;
    case "ruff":
      writes = (operands[0] === "format" && !checking) || (operands[0] === "check" && has("--fix"));
      files = operands.slice(1);
      break;
    case "gofmt":
    case "goimports":
      writes = has("-w");
      break;
    case "clang-format":
      writes = has("-i");
      break;
    default:
      return null;
  }
  return writes && !checking ? files.filter((file) => !looksLikeFolder(file)) : [];
}

/**
 * Programs that write the file their output option names: a download (`curl -o a.svg URL`, `wget -O a.zip URL`)
 * and a document or image converter (`pandoc a.md -o a.docx`, `rsvg-convert -w 32 a.svg -o a.png`, `iconutil -o a.icns`).
 * A compiler's `-o` is left out: what it writes is a build artefact (LABELS.md).
 */
const OUTPUT_OPTIONS: Record<string, RegExp> = {
  curl: /^(-o|--output)$/,
  wget: /^(-O|--output-document)$/,
  pandoc: /^(-o|--output)$/,
  "rsvg-convert": /^(-o|--output)$/,
  iconutil: /^(-o|--output)$/,
  cwebp: /^-o$/,
  svgo: /^(-o|--output)$/,
};

function outputFileOf(name: string, args: readonly string[]): string | undefined {
  const option = OUTPUT_OPTIONS[name];
  if (!option) return undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const joined = /^--[\w-]+=(.+)$/.exec(arg);
    if (joined && option.test(arg.slice(0, arg.indexOf("=")))) return joined[1];
    if (option.test(arg) && i + 1 < args.length) return args[i + 1];
  }
  return undefined;
}

/** A folder moved or copied whole (`mv a/ b`, `cp -r a b`): the files the session knows under it land under the other. */
export interface FolderCopy {
  from: string;
  to: string;
}

/** What one simple command does to the tree: the files it names as written, and a folder it carries whole. */
interface CommandEffects {
  written: readonly string[];
  folderCopy?: FolderCopy;
}

/**
 * `mv SRC DEST` and `cp -r SRC DEST` of a folder: DEST is the folder's new name, or (`DEST/`, with a slash)
 * the folder it goes into. Only two operands, none a glob or a variable: anything else names no one folder.
 */
function folderCopyOf(name: string, options: readonly string[], operands: readonly string[], recursive: boolean): FolderCopy | undefined {
  const moves = name === "mv" || name === "git mv" || name === "move";
  if (!(moves || ((name === "cp" || name === "copy") && recursive)) || operands.length !== 2) return undefined;
  const [from, to] = operands as [string, string];
  if (!looksLikeFolder(from) || options.includes("-t") || [from, to].some((path) => /[*?$`()]/.test(path) || path === "." || path === "..")) return undefined;
  const source = withoutTrailingSlash(from);
  const into = /[\\/]$/.test(to) ? `${withoutTrailingSlash(to)}/${baseName(source)}` : to;
  return { from: source.replace(/[\\/]\.$/, ""), to: into };
}

/** The files one simple command (no `;`, `&&`, `|`) names as written, moved or deleted, and a folder it carries whole. */
function commandEffects(words: string[]): CommandEffects {
  // Leading variable assignments and `sudo` change nothing about what is written.
  while (words.length > 0 && (/^\w+=/.test(words[0]!) || words[0] === "sudo" || words[0] === "command")) words.shift();
  const runner = RUNNERS[words.slice(0, 2).join(" ")] ?? RUNNERS[words[0] ?? ""];
  if (runner) words = words.slice(runner);
  // `powershell -NoProfile -Command Set-Content …`: the command is the script's.
  if (/^(powershell|pwsh)(\.exe)?$/i.test(words[0] ?? "")) {
    const script = words.findIndex((word) => /^-(command|c)$/i.test(word));
    if (script !== -1) words = words.slice(script + 1);
  }
  let [name = "", ...args] = words;
  name = name.toLowerCase().replace(/\.exe$/, "");
  const cmdlet = powershellWrites(name, args);
  if (cmdlet) return { written: cmdlet };
  if (name === "git" && (args[0] === "restore" || args[0] === "checkout")) return { written: gitRestored(args[0], args.slice(1)) };
  if (name === "git" && (args[0] === "mv" || args[0] === "rm")) {
    // `git rm --cached` changes the index only (LABELS.md).
    if (args[0] === "rm" && args.includes("--cached")) return { written: [] };
    name = `git ${args.shift()}`;
  }
  const options = args.filter((a) => a.startsWith("-"));
  const operands = args.filter((a) => !a.startsWith("-"));
  const recursive = options.some((o) => /^-[a-zA-Z]*[rRa]|^--recursive/.test(o) && !/^-i/.test(o));
  const program = baseName(name);
  const formatted = formatterWrites(program, options, operands);
  if (formatted) return { written: formatted };
  const output = outputFileOf(program, args);
  if (output) return { written: [output] };
  const folderCopy = folderCopyOf(name, options, operands, recursive);
  if (folderCopy) return { written: [], folderCopy };
  return { written: namedWrites(name, options, operands, recursive) };
}

/**
 * Where a move or copy puts its files: `cp a.md b.md` writes b.md; `cp a.md docs/` (a folder: a trailing
 * slash, more than one source, or a name without an extension given files) writes docs/a.md.
 */
function landedFiles(operands: readonly string[]): string[] {
  const sources = operands.slice(0, -1);
  const target = operands.at(-1)!;
  const intoFolder = /[\\/]$/.test(target) || sources.length > 1 || (looksLikeFolder(target) && sources.every((source) => !looksLikeFolder(source)));
  if (!intoFolder) return [target];
  const folder = withoutTrailingSlash(target);
  // A source without an extension is a folder moved in: it names no file.
  return sources.filter((source) => !/[*?$`]/.test(source) && !looksLikeFolder(source)).map((source) => `${folder}/${baseName(source)}`);
}

function namedWrites(name: string, options: readonly string[], operands: readonly string[], recursive: boolean): readonly string[] {
  switch (name) {
    case "mv":
    case "git mv":
    case "move":
      // A folder moved (neither name has an extension, nor is a known extensionless file) writes no file.
      return operands.length >= 2 && !operands.every(looksLikeFolder) ? landedFiles(operands) : [];
    case "ren":
    case "rename": {
      // Windows' ren gives the new name alone: it stays in the old one's folder.
      if (operands.length !== 2) return [];
      const [from, to] = operands as [string, string];
      const folder = from.replace(/\\/g, "/").replace(/[^/]*$/, "");
      return [/[\\/]/.test(to) ? to : folder + to];
    }
    case "cp":
    case "copy":
      return !recursive && operands.length >= 2 ? landedFiles(operands) : [];
    case "touch":
      return operands;
    case "sed":
      if (!options.some((o) => /^(-i|--in-place|-[a-zA-Z]*i)/.test(o))) return [];
      // The script: given with -e (its text blanked as quoted), or the first operand.
      return options.some((o) => o === "-e" || o === "-f") || !SED_SCRIPT.test(operands[0] ?? "") ? operands : operands.slice(1);
    case "perl":
      return options.some((o) => /^-[a-zA-Z]*i/.test(o)) ? operands : [];
    default:
      return [];
  }
}

/**
 * The files `git restore` or `git checkout` rewrites in the working tree: `git restore [--source X] a b`
 * its paths unless it restores the index only (`--staged` without `--worktree`), `git checkout [REF] -- a b`
 * the paths after `--` (a branch checked out names no file it rewrote).
 */
function gitRestored(subcommand: string, args: string[]): string[] {
  const dashes = args.indexOf("--");
  if (subcommand === "checkout") return dashes === -1 ? [] : args.slice(dashes + 1).filter((file) => file !== "." && !looksLikeFolder(file));
  if (args.includes("--staged") || args.includes("-S")) {
    if (!args.some((a) => a === "--worktree" || a === "-W" || /^-[a-zA-Z]*W/.test(a))) return [];
  }
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") continue;
    if (dashes !== -1 && i > dashes) paths.push(arg);
    else if (arg === "-s" || arg === "--source") i++;
    else if (!arg.startsWith("-")) paths.push(arg);
  }
  // `git restore .` names the whole tree, not a file it rewrote.
  return paths.filter((file) => file !== "." && !looksLikeFolder(file));
}

/** PowerShell parameters that take a value (the word after them); every other `-Name` is a switch. */
const POWERSHELL_VALUED = new Set([
  "-path",
  "-literalpath",
  "-filepath",
  "-destination",
  "-newname",
  "-value",
  "-encoding",
  "-itemtype",
  "-type",
  "-name",
  "-inputobject",
  "-width",
  "-delimiter",
  "-stream",
]);

/**
 * The files a PowerShell cmdlet writes: `Set-Content`, `Add-Content` and `Out-File` their path,
 * `New-Item` the file it creates (not a directory), `Copy-Item` and `Move-Item` their destination,
 * `Rename-Item` its new name beside the old one. Null for any other command.
 */
function powershellWrites(name: string, args: readonly string[]): string[] | null {
  if (!["set-content", "add-content", "out-file", "new-item", "copy-item", "move-item", "rename-item"].includes(name)) return null;
  const named = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (!word.startsWith("-")) positional.push(word);
    else if (POWERSHELL_VALUED.has(word.toLowerCase()) && i + 1 < args.length && !args[i + 1]!.startsWith("-")) named.set(word.toLowerCase(), args[++i]!);
    else named.set(word.toLowerCase(), "");
  }
  const path = named.get("-path") ?? named.get("-literalpath") ?? named.get("-filepath");
  switch (name) {
    case "new-item": {
      if (/^(directory|dir|folder)$/i.test(named.get("-itemtype") ?? named.get("-type") ?? "")) return [];
      const target = path ?? positional[0];
      const leaf = named.get("-name");
      return target ? [leaf ? `${target.replace(/[\\/]+$/, "")}/${leaf}` : target] : [];
    }
    case "copy-item":
    case "move-item": {
      if (named.has("-recurse")) return [];
      const destination = named.get("-destination") ?? positional[path === undefined ? 1 : 0];
      return destination && !looksLikeFolder(destination) ? [destination] : [];
    }
    case "rename-item": {
      const from = path ?? positional[0];
      const to = named.get("-newname") ?? positional[path === undefined ? 1 : 0];
      if (!from || !to) return [];
      return [/[\\/]/.test(to) ? to : from.replace(/\\/g, "/").replace(/[^/]*$/, "") + to];
    }
    default: {
      const target = path ?? positional[0];
      return target ? [target] : [];
    }
  }
}

/** Where `cd DIR` leaves a relative path: DIR joined onto where the command was. */
function joinPath(base: string, path: string): string {
  if (base === "" || /^([A-Za-z]:)?[\\/]|^~/.test(path)) return path;
  const parts: string[] = [];
  for (const part of `${base}/${path}`.replace(/\\/g, "/").split("/")) {
    if (part === "." || (part === "" && parts.length > 0)) continue;
    if (part === ".." && parts.length > 0 && parts.at(-1) !== ".." && parts.at(-1) !== "") parts.pop();
    else parts.push(part);
  }
  return parts.join("/");
}

const MAX_UNROLLED_COMMAND = 100_000;
/** `for d in a b c; do … done` over a plain list (no expansion, glob or command in it), its body not nested. */
const FOR_LOOP = /\bfor\s+([A-Za-z_]\w*)\s+in\s+([^;\n]*?)\s*(?:;|\n)\s*do\b([\s\S]*?)(?:;|\n)\s*done\b/g;

/**
 * The command with each loop over a plain list written out once per word (`for d in a b; do touch "$d/.keep"; done`
 * is `touch a/.keep; touch b/.keep`), so that the files the loop writes are read like any other. Found in the
 * command with its quotes blanked (a `for` inside a string is no loop); its words taken from the command itself.
 */
function withLoopsUnrolled(command: string): string {
  // Unrolled only in commands of a reasonable size: a loop's lazy body scan is linear per loop, not per command.
  if (!command.includes("for ") || command.length > MAX_UNROLLED_COMMAND) return command;
  // A backslash at a line's end goes on with the next line: blanked to spaces of the same length, so offsets hold.
  const syntax = syntaxOnly(command).replace(/\\\r?\n/g, (join) => " ".repeat(join.length));
  let out = "";
  let from = 0;
  for (const loop of syntax.matchAll(FOR_LOOP)) {
    const [whole, variable] = loop as unknown as [string, string];
    const start = loop.index;
    const listAt = start + whole.indexOf(loop[2]!, whole.indexOf(" in ") + 1);
    const words = command
      .slice(listAt, listAt + loop[2]!.length)
      .replace(/\\\r?\n/g, " ")
      .trim()
      .split(/\s+/)
      .map((word) => word.replace(/^(["'])(.*)\1$/, "$2"));
    if (words.length === 0 || words.some((word) => word === "" || /[$`*?(){}[\]]/.test(word))) continue;
    const bodyAt = start + whole.lastIndexOf(loop[3]!);
    const body = command.slice(bodyAt, bodyAt + loop[3]!.length);
    const reference = new RegExp(String.raw`"\$\{?${variable}\}?([^"\s$\`]*)"|\$\{?${variable}\}?(?!\w)`, "g");
    const unrolled = words.map((word) => body.replace(reference, (_, rest?: string) => word + (rest ?? ""))).join("\n");
    out += command.slice(from, start) + unrolled + "\n";
    from = start + whole.length;
  }
  return out + command.slice(from);
}

/**
 * A word quoted whole and plain (no space, variable, glob or escape in it: `> 'app/[id]/page.tsx'`, `"src/a.ts"`)
 * is that word: unquoted, so that the quote-blanking below does not hide a file named that way. A quotation
 * inside another stays inside it (the outer one is still blanked), and a heredoc's body is dropped anyway.
 */
function withPlainWordsUnquoted(command: string): string {
  // Only what may name a file (a dot or a slash in it); not a sed script (`'s/a/b/g'`) or an exclusion (`'!*.lock'`).
  return command.replace(/(^|[\s=])(['"])([^'"\s$`*?\\!]+)\2(?=$|[\s;&|)])/g, (quoted, before: string, _quote: string, word: string) =>
    /[./]/.test(word) && !/^[sy]([/|#,:@]).*\1/.test(word) ? before + word : quoted,
  );
}

export function shellWrittenPaths(command: string): string[] {
  return [...shellEffects(command).written];
}

/** The folders a command moves or copies whole, each read against the folder the command ran in. */
export function shellFolderCopies(command: string): FolderCopy[] {
  return [...shellEffects(command).folderCopies];
}

/**
 * The last command read and what it does: the files it writes and the folders it carries are asked for one
 * after the other (core/checkride/facts.ts), and a command can be megabytes, so it is read once.
 */
let lastRead: { command: string; effects: { written: string[]; folderCopies: FolderCopy[] } } | undefined;

function shellEffects(command: string): { written: string[]; folderCopies: FolderCopy[] } {
  if (lastRead?.command === command) return lastRead.effects;
  const effects = readEffects(command);
  lastRead = { command, effects };
  return effects;
}

function readEffects(command: string): { written: string[]; folderCopies: FolderCopy[] } {
  command = withPlainWordsUnquoted(withLoopsUnrolled(command));
  // A backslash at a line's end (outside quotes, which syntaxOnly blanked) goes on with the next line.
  const syntax = syntaxOnly(command).replace(/\\\r?\n/g, " ");
  const paths: string[] = [];
  const folderCopies: FolderCopy[] = [];
  // One simple command at a time, so that a path is read against the folder the command ran in: after
  // `cd src && sed -i … a.ts` the file is src/a.ts.
  let folder = "";
  for (const piece of syntax.split(/&&|\|\||[;\n]|\|/)) {
    const simple = piece.trim();
    const found: string[] = [];
    for (const match of simple.matchAll(REDIRECT)) found.push(match[1]!);
    for (const match of simple.matchAll(TEE)) found.push(match[2]!);
    // Redirections are cut out before the words are read: `cp a b > log` copies to b.
    // A descriptor duplicated (`2>&1`, `>&2`) names no file, and is no operand either: `git mv a b 2>&1` moves to b.
    // Tested a word at a time: the same test over the whole text backtracks on every digit (seconds on 64 KB of hex).
    const words = simple
      .replace(REDIRECT, " ")
      .trim()
      .split(/\s+/)
      .filter((word) => word !== "" && !DUPLICATED_DESCRIPTOR.test(word));
    if ((words[0] === "cd" || words[0] === "pushd" || words[0] === "Set-Location") && words.length === 2 && !/[$`]/.test(words[1]!)) {
      folder = words[1] === "-" ? folder : joinPath(folder, words[1]!);
      continue;
    }
    const effects = commandEffects(words);
    found.push(...effects.written);
    for (const path of found) if (isFileTarget(path)) paths.push(joinPath(folder, path));
    if (effects.folderCopy) folderCopies.push({ from: joinPath(folder, effects.folderCopy.from), to: joinPath(folder, effects.folderCopy.to) });
  }
  return { written: [...new Set(paths)], folderCopies };
}
