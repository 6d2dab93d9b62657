/**
 * The node identifier a licence is bound to: 128 random bits, generated the
 * first time a data folder is used and kept in its `node-id` file, so it
 * survives restarts and upgrades but not a fresh data folder. Random rather
 * than derived from the hostname or MAC address: those change with
 * containers and network cards, and would leak machine details to a vendor.
 */
import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LicenceError } from './licence-error.js';

export const NODE_ID_FILE_NAME = 'node-id';

/** `node-` and 32 lower-case hex digits (128 bits). */
export const NODE_ID_PATTERN = /^node-[0-9a-f]{32}$/;

/** Readable by all: the node id is not a secret (GET /config/nodeinfo shows it). */
const NODE_ID_FILE_MODE = 0o644;

export function isNodeId(value: string): boolean {
  return NODE_ID_PATTERN.test(value);
}

export function generateNodeId(): string {
  return `node-${randomBytes(16).toString('hex')}`;
}

/** The node id of `dataDir`, created (with the folder) on first use; the same on every later call. */
export async function loadNodeId(dataDir: string): Promise<string> {
  const path = join(dataDir, NODE_ID_FILE_NAME);
  const existing = await readNodeIdFile(path);
  if (existing !== null) return existing;
  await mkdir(dataDir, { recursive: true });
  // Written whole beside the target, then hard-linked into place: link() fails
  // when the target exists, so two processes starting at once agree on one id,
  // and no reader ever sees a half-written file.
  const temporary = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(temporary, `${generateNodeId()}\n`, { flag: 'wx', mode: NODE_ID_FILE_MODE });
    await chmod(temporary, NODE_ID_FILE_MODE); // the umask may have narrowed it
    await link(temporary, path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  } finally {
    await rm(temporary, { force: true });
  }
  const created = await readNodeIdFile(path);
  if (created === null) throw new LicenceError('ERR_NODE_ID_INVALID', `node id file ${path} vanished while it was being created`, { path });
  return created;
}

async function readNodeIdFile(path: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const value = text.trim();
  // Never replaced silently: a new id would orphan the installed licence.
  if (!isNodeId(value)) throw new LicenceError('ERR_NODE_ID_INVALID', `node id file ${path} does not hold a node id (expected node- and 32 hex digits)`, { path });
  return value;
}
