/** A new empty folder under the system's temporary folder, for one test's data. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tempFolder(name: string): string {
  return mkdtempSync(join(tmpdir(), `klvscope-${name}-`));
}
