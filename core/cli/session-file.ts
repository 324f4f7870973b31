/** A session file the CLI read: what every command that reads one gets (input.ts for a file, folder.ts for a folder). */
import type { Session } from "../model.ts";

export interface SessionFile {
  file: string;
  /** Size in bytes and SHA-256 of the file as read. */
  bytes: number;
  sha256: string;
  session: Session;
  /** SHA-256 of the first `prefixBytes` bytes, when asked for and the file is at least that long. */
  prefixSha256?: string;
  /** Whether the records came from the pieces as they were read (false: the whole bytes were loaded at the end). */
  streamed: boolean;
  /** Whether `session` is only an outline (asked for with `outline`; see core/outline.ts). */
  outlined: boolean;
}
