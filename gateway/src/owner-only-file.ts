/**
 * A secret file (the API key, the streaming module's credentials) made at
 * first start: created exclusively, readable and writable by its owner only,
 * its content synced before anyone is told it exists.
 */
import { open } from 'node:fs/promises';

/** Writes `content` into a new file at `path` (mode 0600); false when the file exists already. */
export async function createOwnerOnlyFile(path: string, content: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(content);
    await handle.sync();
    return true;
  } finally {
    await handle.close();
  }
}
