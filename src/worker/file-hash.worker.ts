/// <reference lib="webworker" />
/**
 * A second worker that only hashes a local file: WebCrypto digests on the
 * calling thread, so the session worker hands this job to a thread of its
 * own and parses and compacts meanwhile (the file is read here a second
 * time: a File is a snapshot, so both reads see the same bytes or fail).
 */
import { fileSha256 } from "../../core/hash.ts";

declare const self: DedicatedWorkerGlobalScope;

export type FileHashReply = { sha256: string } | { error: string };

self.onmessage = async (event: MessageEvent<File>) => {
  let reply: FileHashReply;
  try {
    reply = { sha256: await fileSha256(new Uint8Array(await event.data.arrayBuffer())) };
  } catch (error) {
    reply = { error: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply);
};
