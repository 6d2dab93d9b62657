/**
 * The hub's overview on the dashboard's live page, in headless Chromium: a
 * real PostgreSQL catalog, the inspection service as the hub, three probes
 * in this process with two UDP sources each on 127.0.0.1, fed by replays of
 * generated streams (one with an injected KLV checksum fault). The page
 * must show what GET /probes and GET /sessions/{id}/findings answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { openLiveSource, replayFile } from '@klvscope/adapters';
import { parseFaultSpec } from '@klvscope/core';
import { BUILT_IN_CHECKS } from '@klvscope/plugins';
import { resolveRuleSet } from '@klvscope/rules';
import type { Page } from 'playwright-core';
import { launchChromium, saveScreenshot, skipWithoutChromium, type ChromiumSession } from '../../test-support/chromium.js';
import { freeUdpPort } from '../../test-support/free-udp-port.js';
import { PostgresCluster, requirePostgres } from '../../test-support/postgres-cluster.js';
import { until } from '../../test-support/until.js';
import { writeGenerated } from '../../gateway/test/inspection/file-test-server.js';
import { ProbeNode } from '../../gateway/src/probe/probe-node.js';
import type {
  ProbeFinding as GatewayProbeFinding,
  ProbeSessionView as GatewayProbeSessionView,
  ProbeStatistics as GatewayProbeStatistics,
  ProbeTrackPoint as GatewayProbeTrackPoint,
  ProbeView as GatewayProbeView,
} from '../../gateway/src/probe/probe-records.js';
import type { ProbeFinding, ProbeSessionView, ProbeStatistics, ProbeTrackPoint, ProbeView } from '../src/dashboard/probes/probe-wire.js';
import { startService, type ServiceProcess } from '../../gateway/test/cli/service-process.js';
import { openSignedIn, startDashboardService, TEST_API_KEY, type DashboardService } from './dashboard-page-driver.js';

// The page's copy of the hub's records must stay readable from the gateway's: this fails the typecheck when they part.
type Assignable<To, From extends To> = [To, From];
export type ProbeRecordsAgree = [
  Assignable<ProbeView, GatewayProbeView>,
  Assignable<ProbeSessionView, GatewayProbeSessionView>,
  Assignable<ProbeFinding, GatewayProbeFinding>,
  Assignable<ProbeStatistics, GatewayProbeStatistics>,
  Assignable<ProbeTrackPoint, GatewayProbeTrackPoint>,
];

const PROBES = ['lab-1', 'lab-2', 'lab-3'];
const FEED_BITRATE = 1_000_000;
/** Long enough to run through the tests: every session stays receiving while they look. */
const FEED_SECONDS = 90;
/** The faulted feed's KLV checksum faults: one every few seconds, so its view sees one come after it opened. */
const FAULT_EVERY_SECONDS = 4;

interface TileShown {
  sessionId: string;
  probe: string;
  source: string;
  light: string;
  bitrate: string;
  href: string;
}

/** The data-* attributes of every element a selector finds, as strings. */
function datasets(page: Page, selector: string): Promise<Array<Record<string, string>>> {
  return page.evaluate(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((element) => ({ ...element.dataset }))`);
}

async function findingSeqsShown(page: Page): Promise<number[]> {
  return (await datasets(page, '.live-findings tr.finding')).map((row) => Number(row.seq));
}

describe("the dashboard: the hub's overview of its probes' sessions (headless Chromium)", function () {
  this.timeout(180_000);
  let cluster: PostgresCluster | undefined;
  let service: DashboardService | undefined;
  let browser: ChromiumSession | undefined;
  const probes: ProbeNode[] = [];
  const feeds = new AbortController();
  const replays: Promise<unknown>[] = [];
  let folder: string | undefined;
  /** The source of the feed with the injected fault. */
  let faultedSource: string;
  let faultedSessionId: string;
  let catalogUrl: string;
  /** A probe in a process of its own, to be killed. */
  let killedProbe: ServiceProcess | undefined;

  const probeViews = async (): Promise<GatewayProbeView[]> => (await service!.api<{ probes: GatewayProbeView[] }>('GET', '/probes')).probes;
  const storedFindings = async (sessionId: string): Promise<GatewayProbeFinding[]> =>
    (await service!.api<{ findings: GatewayProbeFinding[] }>('GET', `/sessions/${sessionId}/findings?limit=100000`)).findings;

  before(async function () {
    skipWithoutChromium(this);
    requirePostgres(this);
    cluster = await PostgresCluster.start();
    const url = cluster.createDatabase('hub');
    catalogUrl = url;
    service = await startDashboardService({ catalogUrl: url });
    folder = mkdtempSync(join(tmpdir(), 'klvscope-probes-page-'));
    const rules = resolveRuleSet(BUILT_IN_CHECKS, {});
    const enabled = new Set(rules.enabledCheckIds);
    // Six different ports: the system may hand the same free port out twice in a row.
    const ports = new Set<number>();
    while (ports.size < PROBES.length * 2) ports.add(await freeUdpPort());
    const sources = [...ports].map((port) => `udp://127.0.0.1:${port}`);
    for (const [p, name] of PROBES.entries()) {
      const own = sources.slice(2 * p, 2 * p + 2);
      probes.push(
        await ProbeNode.start({
          catalogUrl: url,
          name,
          sources: own,
          openSource: (source) => openLiveSource(source),
          checks: BUILT_IN_CHECKS.filter((check) => enabled.has(check.id)),
          rules: rules.slices,
          // Long enough that no feed falls silent while the test looks.
          noDataSeconds: 60,
          bufferLimitBytes: 8 * 1024 * 1024,
          log: () => undefined,
        }),
      );
    }
    // lab-2's second feed carries the fault.
    faultedSource = sources[3];
    for (const [i, source] of sources.entries()) {
      const faults = source === faultedSource ? Array.from({ length: FEED_SECONDS / FAULT_EVERY_SECONDS - 1 }, (_, k) => parseFaultSpec(`klv-checksum@${(k + 1) * FAULT_EVERY_SECONDS}`)) : [];
      const { path } = writeGenerated(folder, `feed-${i + 1}.ts`, { durationSeconds: FEED_SECONDS, bitrate: FEED_BITRATE, klv: {}, seed: 40 + i, faults });
      replays.push(replayFile(path, source, { signal: feeds.signal }).catch(() => undefined));
    }
    const faulted = (await probeViews()).flatMap((probe) => probe.sessions).find((session) => session.source === faultedSource);
    expect(faulted, 'the faulted feed has its session').to.not.equal(undefined);
    faultedSessionId = faulted!.sessionId;
    browser = await launchChromium({ viewport: { width: 1440, height: 900 } });
  });
  after(async function () {
    killedProbe?.child.kill('SIGKILL');
    feeds.abort();
    await Promise.all(replays);
    await browser?.close();
    for (const probe of probes) await probe.stop();
    await service?.close();
    cluster?.remove();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('shows a tile for each of the six probe sessions, with the probe, source, bit rate and sparkline GET /probes gives, the faulted one in error', async function () {
    const page = await openSignedIn(browser!, service!, '#/live');
    await page.waitForSelector(`.probe-tile[data-session="${faultedSessionId}"][data-light="error"]`, { timeout: 30_000 });
    // Two readings at least for every sparkline: the tiles have been drawn again from later answers.
    await until('a line in every sparkline', 10_000, async () => (await datasets(page, '.probe-tile .sparkline')).every((svg) => Number(svg.readings) >= 2));

    const answer = await probeViews();
    const sessions = answer.flatMap((probe) => probe.sessions);
    expect(answer.map((probe) => ({ name: probe.name, online: probe.online }))).to.deep.equal(PROBES.map((name) => ({ name, online: true })));
    expect(sessions).to.have.length(6);
    expect(new Set(sessions.map((session) => session.source)).size, 'six sources').to.equal(6);
    const tiles = await page.evaluate<TileShown[]>(`[...document.querySelectorAll('.probe-tile')].map((tile) => ({
      sessionId: tile.dataset.session,
      probe: tile.querySelector('[data-field="probe"]').textContent,
      source: tile.querySelector('[data-field="source"]').textContent,
      light: tile.dataset.light,
      bitrate: tile.querySelector('[data-field="bitrate"]').textContent,
      href: tile.getAttribute('href'),
    }))`);
    // Ordered by probe, then source.
    const expected = [...sessions].sort((a, b) => a.probe.localeCompare(b.probe) || a.source.localeCompare(b.source));
    expect(tiles.map(({ sessionId, probe, source, href }) => ({ sessionId, probe, source, href }))).to.deep.equal(
      expected.map((session) => ({ sessionId: session.sessionId, probe: session.probe, source: session.source, href: `#/live/probe/${session.sessionId}` })),
    );
    for (const tile of tiles) expect(tile.bitrate, `the bit rate of ${tile.source}`).to.match(/^\d+(\.\d+)? (Mb|kb)\/s$/);

    // The faulted session: in error on the page and for REST, its last finding an error shown on its tile.
    const faulted = sessions.find((session) => session.sessionId === faultedSessionId)!;
    expect(faulted.light).to.equal('error');
    expect(faulted.lastFinding).to.not.equal(null);
    const lastFindingShown = await page.textContent(`.probe-tile[data-session="${faultedSessionId}"] [data-field="lastFinding"]`);
    expect(lastFindingShown).to.not.equal('no finding');
    // The clean feeds: none in error, on the page or for REST.
    const others = tiles.filter((tile) => tile.sessionId !== faultedSessionId);
    expect(others.map((tile) => tile.light)).to.not.include('error');
    expect(sessions.filter((session) => session.sessionId !== faultedSessionId).map((session) => session.light)).to.not.include('error');
    expect(await page.textContent('[data-field="probesSummary"]')).to.match(/^3 probes, 3 online · 6 sessions: 1 error, /);
    // The service's own live session keeps its form under the overview.
    expect(await page.$('.live-source-form')).to.not.equal(null);
    console.log(`      lights: ${tiles.map((tile) => `${tile.probe} ${tile.light}`).join(', ')}`);
    await saveScreenshot(page, 'dashboard-probes-overview-1440');
    await page.close();
  });

  it("opens the faulted session's live view from its tile: the findings stored before it opened, the new ones, its statistics and track", async function () {
    const page = await openSignedIn(browser!, service!, '#/live');
    await page.waitForSelector(`.probe-tile[data-session="${faultedSessionId}"]`, { timeout: 10_000 });
    const storedBefore = await storedFindings(faultedSessionId);
    expect(storedBefore.length, 'the fault was found before the view opens').to.be.greaterThan(0);
    await page.click(`.probe-tile[data-session="${faultedSessionId}"]`);
    await page.waitForSelector(`.probe-session-page[data-session="${faultedSessionId}"] [data-field="source"]`, { timeout: 10_000 });
    expect(await page.evaluate('window.location.hash')).to.equal(`#/live/probe/${faultedSessionId}`);
    expect(await page.textContent('.probe-session-page [data-field="source"]')).to.equal(faultedSource);
    expect(await page.textContent('.probe-session-page h1 [data-field="probe"]')).to.equal('lab-2');

    // What was stored before the view opened, from REST; then a finding that came after, from the live channel.
    await until('the stored findings on the page', 10_000, async () => {
      const shown = new Set(await findingSeqsShown(page));
      return storedBefore.every((finding) => shown.has(finding.seq));
    });
    const highestStored = Math.max(...storedBefore.map((finding) => finding.seq));
    await until('a finding of the next fault on the page', (FAULT_EVERY_SECONDS + 10) * 1000, async () => (await findingSeqsShown(page)).some((seq) => seq > highestStored));

    // Every row is a stored finding, and none stored up to the newest row is missing (nor shown twice).
    const shown = await findingSeqsShown(page);
    const stored = await storedFindings(faultedSessionId);
    const newestShown = Math.max(...shown);
    expect([...shown].sort((a, b) => a - b)).to.deep.equal(stored.map((finding) => finding.seq).filter((seq) => seq <= newestShown));
    const checksOnPage = (await datasets(page, '.live-findings tr.finding')).map((row) => row.check);
    expect(checksOnPage).to.include('klv-checksum-errors');

    // Statistics and the KLV track, from the fleet subscriptions of this session.
    await until('a statistics reading on the page', 10_000, async () => (await page.$('.probe-session-page .latest-reading')) !== null);
    await until('the track on the map', 10_000, async () => Number(await page.getAttribute('.probe-session-page .live-map', 'data-platform-points')) > 30);
    expect(await page.getAttribute('.probe-session-page', 'data-light')).to.equal('error');
    await saveScreenshot(page, 'dashboard-probe-session-1440');
    await page.close();
  });

  it("starts a session on a chosen probe from the live page's form and opens its live view", async function () {
    const page = await openSignedIn(browser!, service!, '#/live');
    await page.waitForSelector('.live-source-form select[name="probe"] option[value="lab-3"]', { state: 'attached', timeout: 10_000 });
    const source = `udp://127.0.0.1:${await freeUdpPort()}`;
    await page.fill('#live-source', source);
    await page.selectOption('.live-source-form select[name="probe"]', 'lab-3');
    await page.click('.live-source-form button.start');
    await page.waitForSelector('.probe-session-page [data-field="source"]', { timeout: 15_000 });
    expect(await page.textContent('.probe-session-page [data-field="source"]')).to.equal(source);
    const started = (await probeViews()).find((probe) => probe.name === 'lab-3')!.sessions.find((session) => session.source === source);
    expect(started, 'the new session on lab-3').to.not.equal(undefined);
    expect(await page.evaluate('window.location.hash')).to.equal(`#/live/probe/${started!.sessionId}`);
    // Nothing is sent to it: it waits for its first datagram.
    expect(await page.getAttribute('.probe-session-page', 'data-light')).to.equal('silent');
    await page.close();
  });

  it('shows the sessions of a probe killed with SIGKILL as probe offline, and the probe offline', async function () {
    const source = `udp://127.0.0.1:${await freeUdpPort()}`;
    killedProbe = await startService(['probe', '--catalog', catalogUrl, '--name', 'lab-4', '--source', source], /reporting to (\S+)/, 'running');
    const page = await openSignedIn(browser!, service!, '#/live');
    await page.waitForSelector('.probe-group[data-probe="lab-4"][data-state="online"] .probe-tile', { timeout: 15_000 });
    killedProbe.child.kill('SIGKILL');
    await killedProbe.exited;
    // The hub calls a probe offline 5 s after its last heartbeat; the page reads the probes every second.
    await page.waitForSelector('.probe-group[data-probe="lab-4"][data-state="offline"] .probe-tile[data-light="offline"]', { timeout: 15_000 });
    const lab4 = (await probeViews()).find((probe) => probe.name === 'lab-4')!;
    expect(lab4.online).to.equal(false);
    expect(lab4.sessions.map((session) => ({ source: session.source, light: session.light, status: session.status }))).to.deep.equal([{ source, light: 'offline', status: 'unknown' }]);
    expect(await page.textContent('.probe-group[data-probe="lab-4"] .probe-tile [data-field="light"]')).to.equal('probe offline');
    await saveScreenshot(page, 'dashboard-probes-offline-1440');
    await page.close();
  });

  it("stops the session from its view; its tile turns ended and greyed, and its findings stay readable", async function () {
    const page = await openSignedIn(browser!, service!, `#/live/probe/${faultedSessionId}`);
    await page.waitForSelector('.probe-session-page button.stop', { timeout: 10_000 });
    await page.click('.probe-session-page button.stop');
    await page.waitForSelector('.probe-session-page[data-light="ended"]', { timeout: 15_000 });
    expect(await page.$('.probe-session-page button.stop')).to.equal(null);
    const stored = await storedFindings(faultedSessionId);

    // Back on the overview: greyed, as ended, and still there to open.
    await page.click('.probe-session-page .back a');
    await page.waitForSelector(`.probe-tile[data-session="${faultedSessionId}"][data-light="ended"]`, { timeout: 10_000 });
    const opacity = await page.evaluate<string>(`getComputedStyle(document.querySelector('.probe-tile[data-session="${faultedSessionId}"]')).opacity`);
    expect(Number(opacity)).to.be.lessThan(1);
    await saveScreenshot(page, 'dashboard-probes-overview-ended-1440');

    // Opened again: nothing comes live any more, every stored finding comes from the catalog.
    await page.click(`.probe-tile[data-session="${faultedSessionId}"]`);
    await until('the stored findings of the ended session', 10_000, async () => (await findingSeqsShown(page)).length === stored.length);
    expect([...(await findingSeqsShown(page))].sort((a, b) => a - b)).to.deep.equal(stored.map((finding) => finding.seq));
    expect(await page.textContent('.probe-session-page [data-field="status"]')).to.equal('stopped');
    await page.close();
  });
});

describe('the dashboard: the live page of a service that is no hub (headless Chromium)', function () {
  this.timeout(60_000);
  let service: DashboardService | undefined;
  let browser: ChromiumSession | undefined;

  before(async function () {
    skipWithoutChromium(this);
    service = await startDashboardService();
    browser = await launchChromium({ viewport: { width: 1440, height: 900 } });
  });
  after(async function () {
    await browser?.close();
    await service?.close();
  });

  it('says plainly that it follows no probes, and keeps its own live session form', async function () {
    const refused = await fetch(`${service!.server.url}/probes`, { headers: { 'X-API-Key': TEST_API_KEY } });
    expect(refused.status).to.equal(409);
    const page = await openSignedIn(browser!, service!, '#/live');
    await page.waitForSelector('.live-page .no-hub', { timeout: 10_000 });
    expect(await page.textContent('.live-page .no-hub')).to.match(/^This service follows no probes/);
    expect(await page.$$('.probe-tile')).to.have.length(0);
    expect(await page.$('.live-source-form')).to.not.equal(null);
    expect(await page.$('.own-session')).to.equal(null);
    expect(await page.$('.live-source-form select[name="probe"]')).to.equal(null);
    await page.waitForSelector('[data-field="channelState"][data-state="open"]', { timeout: 10_000 });
    await saveScreenshot(page, 'dashboard-live-no-hub-1440');

    // A probe session's address on such a service: said so.
    await page.evaluate(`window.location.hash = '#/live/probe/no-such-session'`);
    await page.waitForSelector('.probe-session-page .no-hub', { timeout: 10_000 });
    expect(await page.textContent('.probe-session-page .no-hub')).to.match(/^This service follows no probes, so it has no probe session no-such-session/);
    expect(await page.$('.probe-session-page .error')).to.equal(null);
    await saveScreenshot(page, 'dashboard-probe-session-no-hub-1440');
    await page.close();
  });
});
