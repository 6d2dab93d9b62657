/**
 * Where the third-party fixtures live: `../shared/fixtures` beside the
 * checkout. A fresh clone has no `../shared`; tests that need a fixture call
 * `fixtureOrSkip(this, ...)`, which skips with a plain message instead.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const fixturesDir = resolve(repoRoot, '../shared/fixtures');

/** Absolute path of a fixture, e.g. fixturePath('real', 'kwiver_h264_klv.ts'). */
export function fixturePath(...parts: string[]): string {
  return join(fixturesDir, ...parts);
}

/** The fixture's path, or skips the running test (or hook) with a clear message when it is absent. */
export function fixtureOrSkip(context: Mocha.Context, ...parts: string[]): string {
  const path = fixturePath(...parts);
  if (!existsSync(path)) {
    console.log(`      skipped: fixture ${parts.join('/')} not found (expected under ${fixturesDir})`);
    context.skip();
  }
  return path;
}
