/**
 * A SQLite write-ahead log folded into its database, as SQLite itself reads
 * them: OpenCode keeps `opencode.db` in WAL mode, so what it wrote since its
 * last checkpoint (often the session the user is debugging) is only in the
 * `opencode.db-wal` beside it. sql.js opens one buffer and never sees that
 * file, so the committed frames are laid over the database's pages here.
 *
 * The format (sqlite.org/fileformat2.html, "The Write-Ahead Log"): a 32-byte
 * header, then frames of a 24-byte header and one page. A frame counts only
 * while its salts equal the header's and its cumulative checksum holds; the
 * log is read up to the last valid *commit* frame (one that records the
 * database's size), so a transaction the writer had not finished is left out,
 * exactly as SQLite would leave it. One pass over the log: linear in its size.
 */

export interface WalMerge {
  /** The database as SQLite would read it with the log: its committed frames applied, marked as not in WAL mode. */
  bytes: Uint8Array;
  /** Committed transactions and the frames they wrote that were applied. */
  transactions: number;
  frames: number;
  /** Frames after the last commit or past the first invalid one (a write in progress, or an older log's leftovers). */
  ignoredFrames: number;
}

const WAL_HEADER = 32;
const FRAME_HEADER = 24;
const MAGIC_LITTLE = 0x377f0682;
const MAGIC_BIG = 0x377f0683;

/** The database's page size from its header (offset 16, big-endian; 1 stands for 65536). */
export function databasePageSize(database: Uint8Array): number {
  const raw = (database[16]! << 8) | database[17]!;
  return raw === 1 ? 65536 : raw;
}

/** Whether the database header says WAL mode (file format read and write versions both 2). */
export function isWalMode(database: Uint8Array): boolean {
  return database.length >= 20 && database[18] === 2 && database[19] === 2;
}

/** SQLite's WAL checksum over `length` bytes from `offset`, continuing from `[s0, s1]`. */
function checksum(view: DataView, offset: number, length: number, littleEndian: boolean, s: [number, number]): [number, number] {
  let [s0, s1] = s;
  for (let i = offset; i < offset + length; i += 8) {
    s0 = (s0 + view.getUint32(i, littleEndian) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4, littleEndian) + s0) >>> 0;
  }
  return [s0, s1];
}

/**
 * The database with the log's committed frames applied. Throws with the reason when the log is not a
 * WAL file or is not this database's (another page size); an empty or cut-short log, or one with no
 * committed frame, leaves the database as it was.
 */
export function mergeWal(database: Uint8Array, wal: Uint8Array): WalMerge {
  const unchanged = (ignoredFrames: number): WalMerge => ({ bytes: withRollbackHeader(database), transactions: 0, frames: 0, ignoredFrames });
  // A log shorter than its header holds no frame (SQLite reads it as empty: a writer cut off while starting it).
  if (wal.length < WAL_HEADER) return unchanged(0);
  const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
  const magic = view.getUint32(0);
  if (magic !== MAGIC_LITTLE && magic !== MAGIC_BIG) throw new Error("not a SQLite write-ahead log (its first bytes are not the WAL magic number)");
  const littleEndian = magic === MAGIC_LITTLE;
  const pageSize = view.getUint32(8);
  if (pageSize !== databasePageSize(database)) {
    throw new Error(`the write-ahead log's pages are ${pageSize} bytes and the database's ${databasePageSize(database)}: not this database's log`);
  }
  const salt1 = view.getUint32(16);
  const salt2 = view.getUint32(20);
  let sum = checksum(view, 0, 24, littleEndian, [0, 0]);
  if (sum[0] !== view.getUint32(24) || sum[1] !== view.getUint32(28)) return unchanged(Math.floor((wal.length - WAL_HEADER) / (FRAME_HEADER + pageSize)));

  const frameSize = FRAME_HEADER + pageSize;
  const totalFrames = Math.floor((wal.length - WAL_HEADER) / frameSize);
  // The newest committed copy of each page (its offset in the log), and the frames of the transaction being read.
  const committed = new Map<number, number>();
  let pending = new Map<number, number>();
  let databasePages = 0;
  let transactions = 0;
  let frames = 0;
  let pendingFrames = 0;
  for (let frame = 0; frame < totalFrames; frame++) {
    const at = WAL_HEADER + frame * frameSize;
    if (view.getUint32(at + 8) !== salt1 || view.getUint32(at + 12) !== salt2) break;
    sum = checksum(view, at, 8, littleEndian, sum);
    sum = checksum(view, at + FRAME_HEADER, pageSize, littleEndian, sum);
    if (sum[0] !== view.getUint32(at + 16) || sum[1] !== view.getUint32(at + 20)) break;
    pending.set(view.getUint32(at), at + FRAME_HEADER);
    pendingFrames++;
    const sizeAfterCommit = view.getUint32(at + 4);
    if (sizeAfterCommit !== 0) {
      for (const [page, offset] of pending) committed.set(page, offset);
      pending = new Map();
      frames += pendingFrames;
      pendingFrames = 0;
      databasePages = sizeAfterCommit;
      transactions++;
    }
  }
  if (transactions === 0) return unchanged(totalFrames);

  const bytes = new Uint8Array(databasePages * pageSize);
  bytes.set(database.subarray(0, Math.min(database.length, bytes.length)));
  for (const [page, offset] of committed) {
    if (page >= 1 && page <= databasePages) bytes.set(wal.subarray(offset, offset + pageSize), (page - 1) * pageSize);
  }
  return { bytes: withRollbackHeader(bytes, true), transactions, frames, ignoredFrames: totalFrames - frames };
}

/** The database marked as a rollback-journal file (header bytes 18-19 set to 1), so nothing looks for a log again. */
function withRollbackHeader(database: Uint8Array, owned = false): Uint8Array {
  if (!isWalMode(database)) return database;
  const bytes = owned ? database : database.slice();
  bytes[18] = 1;
  bytes[19] = 1;
  return bytes;
}
