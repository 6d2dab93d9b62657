import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { generateTransportStream } from '@klvscope/core';
import { FleetWorker } from '@klvscope/gateway';
import { BUILT_IN_CHECKS } from '@klvscope/plugins';
import type { Page } from 'playwright-core';
import { artifactsDir, launchChromium, skipWithoutChromium, type ChromiumSession } from '../../test-support/chromium.js';
import { PostgresCluster, requirePostgres } from '../../test-support/postgres-cluster.js';
import { openSignedIn, startDashboardService, type DashboardService } from './dashboard-page-driver.js';
import type { FleetStatus as GatewayFleetStatus } from '../../gateway/src/fleet/fleet-status.js';
import type { FleetStatus } from '../src/dashboard/fleet/fleet-wire.js';

// The page's copy of GET /fleet's answer must stay readable from the gateway's: this fails the typecheck when they part.
type Assignable<To, From extends To> = [To, From];
export type FleetStatusAgrees = Assignable<FleetStatus, GatewayFleetStatus>;

interface FleetAnswer {
  workers: { id: string; state: string; jobsDone: number }[];
  queue: { completed: number; failed: number };
  failed: { id: string; path: string; error: string }[];
}

describe('the dashboard: the fleet page', function () {
  this.timeout(180_000);
  let cluster: PostgresCluster | undefined;
  let service: DashboardService | undefined;
  let worker: FleetWorker | undefined;
  let session: ChromiumSession | undefined;
  let root: string;

  before(async function () {
    skipWithoutChromium(this);
    requirePostgres(this);
    cluster = await PostgresCluster.start();
    const url = cluster.createDatabase('dashboard');
    root = realpathSync(mkdtempSync(join(tmpdir(), 'klvscope-fleet-page-')));
    for (let i = 0; i < 3; i++) writeFileSync(join(root, `sortie-${i + 1}.ts`), generateTransportStream({ durationSeconds: 2 + i, bitrate: 2_000_000, klv: {}, seed: i + 1 }).bytes);
    // Not a transport stream: its job fails, after its retries.
    writeFileSync(join(root, 'broken.ts'), Buffer.alloc(50_000, 0x47 + 1));
    service = await startDashboardService({ browseRoots: [root], catalogUrl: url });
    worker = await FleetWorker.start({ catalogUrl: url, workDir: `${root}-worker`, checks: { checks: [...BUILT_IN_CHECKS], rules: {} }, pollMs: 100 });
    session = await launchChromium({ viewport: { width: 1440, height: 900 } });
  });
  after(async function () {
    await session?.close();
    await worker?.stop();
    await service?.close();
    cluster?.remove();
    if (root) {
      rmSync(root, { recursive: true, force: true });
      rmSync(`${root}-worker`, { recursive: true, force: true });
    }
  });

  async function fleetNow(): Promise<FleetAnswer> {
    return service!.api<FleetAnswer>('GET', '/fleet');
  }

  it('queues a folder, follows the batch to its end, and shows the workers and the queue as GET /fleet does', async function () {
    const page: Page = await openSignedIn(session!, service!, '#/fleet');
    await page.waitForSelector('.fleet-page .workers tr.worker');
    await page.fill('.batch-form input[name=folder]', root);
    await page.click('.batch-form button[type=submit]');
    await page.waitForSelector('.batch-progress', { timeout: 10_000 });
    await page.waitForFunction("document.querySelector('.batch-progress span')?.textContent?.includes('the batch has ended')", undefined, { timeout: 60_000 });
    const progress = await page.textContent('.batch-progress span');
    expect(progress).to.match(/^4 of 4 recordings done, 1 failed/);
    // The page reads the fleet every two seconds: wait for a reading after the last heartbeat.
    await page.waitForTimeout(2_500);
    const answer = await fleetNow();
    await page.waitForTimeout(2_200);
    const rowLocator = page.locator('.workers tr.worker');
    const rows: { id: string | null; jobs: string }[] = [];
    for (let i = 0; i < (await rowLocator.count()); i++) {
      rows.push({ id: await rowLocator.nth(i).getAttribute('data-worker'), jobs: await rowLocator.nth(i).locator('td:nth-child(7)').innerText() });
    }
    expect(rows).to.deep.equal(answer.workers.map((w) => ({ id: w.id, jobs: String(w.jobsDone) })));
    expect(answer.workers[0].jobsDone).to.equal(3);
    const queueText = await page.textContent('.queue-counts');
    expect(queueText).to.contain(`${answer.queue.completed} done`).and.contain(`${answer.queue.failed} failed`);
    await page.screenshot({ path: join(artifactsDir, 'dashboard-fleet-1440.png'), fullPage: true });
    await page.setViewportSize({ width: 800, height: 900 });
    await page.screenshot({ path: join(artifactsDir, 'dashboard-fleet-800.png'), fullPage: true });
    await page.close();
  });

  it('lists the failed job with its error, and Retry queues it again', async function () {
    const page = await openSignedIn(session!, service!, '#/fleet');
    const before = await fleetNow();
    expect(before.failed.map((job) => job.path)).to.deep.equal([join(root, 'broken.ts')]);
    await page.waitForSelector('.failed-job');
    expect(await page.textContent('.failed-job td.bad')).to.equal(before.failed[0].error);
    expect(before.failed[0].error).to.contain('broken.ts');
    await page.click('.failed-job button.retry');
    // Retried, it fails again on the worker: the queue counts a second run of it.
    const deadline = Date.now() + 20_000;
    let after = await fleetNow();
    while (after.failed.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await fleetNow();
    }
    expect(after.failed).to.have.length(1);
    expect(after.workers[0].jobsDone).to.equal(before.workers[0].jobsDone);
    await page.close();
  });

  it("shows on the files page which worker inspected each file", async function () {
    const page = await openSignedIn(session!, service!, '#/files');
    await page.waitForSelector('.archive tr.archive-entry');
    const workers = await page.locator('.archive tr.archive-entry td.worker').allTextContents();
    expect(workers).to.have.length(3);
    for (const shown of workers) expect(shown).to.equal(worker!.id);
    await page.screenshot({ path: join(artifactsDir, 'dashboard-files-fleet-1440.png'), fullPage: true });
    await page.close();
  });
});
