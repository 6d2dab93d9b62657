/**
 * The set-up of a viewer test on clips made with ffmpeg: a temporary folder
 * for them and a Chromium for the suite, the web bundle built, skipped with
 * the reason where Chromium or ffmpeg is missing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFfmpeg } from '@klvscope/adapters';
import { buildWeb } from '@klvscope/web/build';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../../test-support/chromium.js';

export interface ViewerClipSuite {
  /** Set in the suite's tests (after `before`). */
  readonly chromium: ChromiumSession;
  /** The folder for the clips and the modules' data folders. */
  readonly dir: string;
  readonly ffmpeg: string;
}

/** Registers the suite's `before` and `after`; call inside `describe`. */
export function viewerClipSuite(folderPrefix: string): ViewerClipSuite {
  let chromium: ChromiumSession | null = null;
  let dir: string | null = null;

  before(async function () {
    const reason = chromiumUnavailableReason() ?? (findFfmpeg() === null ? 'no ffmpeg on the PATH (apt-get install ffmpeg)' : null);
    if (reason !== null) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    await buildWeb();
    dir = await mkdtemp(join(tmpdir(), folderPrefix));
    chromium = await launchChromium({ viewport: { width: 1280, height: 900 } });
  });

  after(async () => {
    await chromium?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  return {
    get chromium() {
      return chromium as ChromiumSession;
    },
    get dir() {
      return dir as string;
    },
    get ffmpeg() {
      return findFfmpeg() as string;
    },
  };
}
