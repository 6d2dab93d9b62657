/**
 * The set-up of a viewer test on kwiver's aphill sample (MPEG-2 video, 1
 * frame/s, EG 0104 KLV), looped as a `file://` source the streaming module
 * transcodes with ffmpeg: the module and a Chromium for the suite, skipped
 * with the reason where Chromium, ffmpeg or the fixture is missing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findFfmpeg } from '@klvscope/adapters';
import { startStreamingServer, type RunningStreamingServer } from '@klvscope/gateway';
import { buildWeb } from '@klvscope/web/build';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../../test-support/chromium.js';
import { fixtureOrSkip } from '../../test-support/fixtures.js';

export interface TranscodedFixtureSuite {
  /** Set in the suite's tests (after `before`). */
  readonly server: RunningStreamingServer;
  readonly chromium: ChromiumSession;
}

/** Registers the suite's `before` and `after`; call inside `describe`. */
export function transcodedFixtureSuite(): TranscodedFixtureSuite {
  let chromium: ChromiumSession | null = null;
  let server: RunningStreamingServer | null = null;
  let dataDir: string | null = null;

  before(async function () {
    const reason = chromiumUnavailableReason() ?? (findFfmpeg() === null ? 'no ffmpeg on the PATH (apt-get install ffmpeg)' : null);
    if (reason !== null) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    const fixture = fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts');
    await buildWeb();
    dataDir = await mkdtemp(join(tmpdir(), 'klvscope-viewer-transcoded-'));
    server = await startStreamingServer({ dataDir, port: 0, env: {}, config: { source: pathToFileURL(fixture).href } });
    chromium = await launchChromium({ viewport: { width: 1280, height: 1000 } });
  });

  after(async () => {
    await chromium?.close();
    await server?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  return {
    get server() {
      return server as RunningStreamingServer;
    },
    get chromium() {
      return chromium as ChromiumSession;
    },
  };
}
