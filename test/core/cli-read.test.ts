/** The CLI reads a session file in pieces: any piece size gives the session, size and hash of the whole file. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { parseArgs } from "../../core/cli/flags.ts";
import { readSessionFile } from "../../core/cli/input.ts";
import { loadSession } from "../../core/session.ts";
import { allFixtures, fixturePath, describeWithFixtures } from "../helpers/fixtures.ts";

describeWithFixtures("readSessionFile", () => {
  it.each(allFixtures())("%s, in pieces of a few bytes, 4 KB, 64 KB and whole", (relative) => {
    const bytes = readFileSync(fixturePath(relative));
    const expected = loadSession(bytes);
    // Pieces of a few bytes cut every multi-byte character somewhere; kept to the smaller files for time.
    const tiny = bytes.length < 200_000 ? [1, 7] : [];
    for (const pieceBytes of [...tiny, 4096, 65_536, 8 * 1024 * 1024]) {
      const read = readSessionFile(parseArgs(["inspect", fixturePath(relative)]), pieceBytes);
      expect(read.bytes).toBe(bytes.length);
      expect(read.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
      expect(read.session.entries).toEqual(expected.entries);
      expect(read.session.warnings).toEqual(expected.warnings);
      expect(read.session.branch(null)).toEqual(expected.branch(null));
    }
  });
});
