/** A fresh folder under the OS temp folder for each test, removed after it. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TemporaryFolder {
  /** The current test's folder (set in beforeEach). */
  readonly path: string;
}

export function useTemporaryFolder(prefix = 'klvscope-test-'): TemporaryFolder {
  const folder = { path: '' };
  beforeEach(async () => {
    folder.path = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await rm(folder.path, { recursive: true, force: true });
  });
  return folder;
}
