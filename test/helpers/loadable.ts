/** The real fixtures some reader accepts today, and the ones every reader still refuses (named, not hidden). */
import { loadSession } from "../../core/session.ts";
import type { Session } from "../../core/model.ts";
import { allFixtures, readFixture } from "./fixtures.ts";

export interface LoadedFixture {
  name: string;
  bytes: Uint8Array;
  session: Session;
}

export function fixturesByLoadability(): { loaded: LoadedFixture[]; refused: { name: string; reason: string }[] } {
  const loaded: LoadedFixture[] = [];
  const refused: { name: string; reason: string }[] = [];
  for (const name of allFixtures()) {
    const bytes = readFixture(name);
    try {
      loaded.push({ name, bytes, session: loadSession(bytes) });
    } catch (error) {
      refused.push({ name, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { loaded, refused };
}
