/** A problem with a file the CLI reads or writes, named with its line (0: the file as a whole): printed as `error: <file>:<line>: <reason>`. */
export class FileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}
