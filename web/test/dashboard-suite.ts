/**
 * The hooks of a dashboard browser suite over generated recordings: skip
 * without Chromium, a recordings folder the suite fills, a real inspection
 * service whose browse roots are that folder (and any others the suite
 * names), headless Chromium; all closed and removed after the suite.
 */
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../../test-support/chromium.js';
import { startDashboardService, type DashboardService } from './dashboard-page-driver.js';
import { createRecordingsFolder, type RecordingsFolder } from './generated-recordings.js';

export interface DashboardSuite {
  session: ChromiumSession;
  service: DashboardService;
  recordings: RecordingsFolder;
}

/**
 * Registers the suite's before and after hooks; the object returned is
 * filled in `before`. `prepare` writes the recordings and names any further
 * browse roots.
 */
export function dashboardSuite(prepare: (recordings: RecordingsFolder) => { moreBrowseRoots?: string[] } | void, viewport = { width: 1280, height: 800 }): DashboardSuite {
  const suite = {} as DashboardSuite;
  before(async function () {
    const reason = chromiumUnavailableReason();
    if (reason !== null) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    suite.recordings = createRecordingsFolder();
    const { moreBrowseRoots = [] } = prepare(suite.recordings) ?? {};
    suite.service = await startDashboardService({ browseRoots: [suite.recordings.root, ...moreBrowseRoots] });
    suite.session = await launchChromium({ viewport });
  });
  after(async () => {
    await suite.session?.close();
    await suite.service?.close();
    suite.recordings?.remove();
  });
  return suite;
}
