/**
 * The dashboard's live page in headless Chromium, against the real
 * inspection service: a live session started from the page on a free UDP
 * port of 127.0.0.1, a generated stream with injected faults sent to it in
 * real time, and what the page shows compared with what a real tRPC client
 * of the live channel receives at the same time.
 */
import { expect } from 'chai';
import { frameKlvValues, generateTransportStream, parseFaultSpec, type InjectedFault } from '@klvscope/core';
import type { LiveFinding as GatewayLiveFinding, LiveMetadataPacket as GatewayLiveMetadataPacket, LiveSessionState as GatewayLiveSessionState, LiveStatistics as GatewayLiveStatistics } from '@klvscope/gateway';
import type { Page } from 'playwright-core';
import { freeUdpPort } from '../../test-support/free-udp-port.js';
import { until } from '../../test-support/until.js';
import { saveScreenshot, type ChromiumSession } from '../../test-support/chromium.js';
import type { LiveClient } from '../../gateway/test/live/live-client.js';
import type { LiveFinding, LiveMetadataPacket, LiveSessionState, LiveStatistics } from '../src/dashboard/live/live-records.js';
import { openSignedIn, TEST_API_KEY, type DashboardService } from './dashboard-page-driver.js';
import { dashboardLiveSuite, startSessionFromPage } from './dashboard-live-driver.js';
import { sendPaced } from '../../test-support/paced-udp-sender.js';

// The page's view of the channel's records must stay readable from the gateway's: this fails the typecheck when they part.
type Assignable<To, From extends To> = [To, From];
export type LiveRecordsAgree = [
  Assignable<LiveFinding, GatewayLiveFinding>,
  Assignable<LiveMetadataPacket, GatewayLiveMetadataPacket>,
  Assignable<LiveStatistics, GatewayLiveStatistics>,
  Assignable<LiveSessionState, GatewayLiveSessionState>,
];

const BITRATE = 2_000_000;

/** Notes, in the page, when each finding row first appears (wall clock, ms since the epoch), by `checkId@packetIndex`. */
const WATCH_FINDING_ROWS = `(() => {
  const seen = (window.findingRowsSeen = {});
  new MutationObserver(() => {
    const now = performance.timeOrigin + performance.now();
    for (const row of document.querySelectorAll('.live-findings tr.finding')) seen[row.dataset.check + '@' + row.dataset.packet] ??= now;
  }).observe(document.body, { childList: true, subtree: true });
})()`;

/** The data-* attributes of every element a selector finds, as strings. */
function datasets(page: Page, selector: string): Promise<Array<Record<string, string>>> {
  return page.evaluate(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((element) => ({ ...element.dataset }))`);
}

describe('the dashboard live page (headless Chromium)', function () {
  this.timeout(60_000);
  const live = dashboardLiveSuite({ width: 1400, height: 1100 });
  let session: ChromiumSession;
  let service: DashboardService;
  /** What the page must agree with. */
  let channel: LiveClient;

  before(() => {
    ({ session, service, channel } = live);
  });

  it('starts a session from the page, shows an injected fault within a second of its packet, plots the statistics the channel gives and draws the KLV track', async () => {
    const { bytes, faults } = generateTransportStream({
      bitrate: BITRATE,
      seed: 25,
      durationSeconds: 4,
      klv: { carriage: 'sync' },
      faults: [parseFaultSpec('pcr-gap@1.5'), parseFaultSpec('klv-checksum@2.5')],
    });
    const port = await freeUdpPort();
    const { page, sessionId } = await startSessionFromPage(live, port);
    const active = await service.api<{ active: { sessionId: string; source: string; kind: string } }>('GET', '/sessions/active');
    expect(active.active).to.include({ sessionId, source: `udp://127.0.0.1:${port}`, kind: 'live' });
    await page.evaluate(WATCH_FINDING_ROWS);

    const sent = await sendPaced(bytes, port, BITRATE);
    const pcrGap = faults.find((fault) => fault.kind === 'pcr-gap') as InjectedFault;
    const rowsSeen = (): Promise<Record<string, number>> => page.evaluate('window.findingRowsSeen');
    await until('the PCR gap on the page', 5_000, async () => Object.keys(await rowsSeen()).some((name) => name.endsWith(`@${pcrGap.packetIndex}`)));
    const [key, shownAt] = Object.entries(await rowsSeen()).find(([name]) => name.endsWith(`@${pcrGap.packetIndex}`)) as [string, number];
    const latencyMs = shownAt - sent.sentAt(pcrGap.packetIndex);
    console.log(`      ${key}: on the page ${latencyMs.toFixed(0)} ms after its packet was sent`);
    expect(key).to.match(/^mpegts-pcr/);
    expect(latencyMs).to.be.within(0, 1000);
    await until('a statistics reading on the page', 3_000, async () => (await page.$('.latest-reading')) !== null);
    await saveScreenshot(page, 'dashboard-live-session');

    // Stopped from the page: the session's last readings and findings come, then nothing.
    await page.click('.live-source-form button.stop');
    await page.waitForSelector('[data-field="status"]:text("stopped")', { timeout: 5_000 });
    const final = await service.api<{ counts: { records: number; metadataPackets: number } }>('GET', `/sessions/${sessionId}`);
    const ofSession = <T extends { sessionId: string }>(events: T[]) => events.filter((event) => event.sessionId === sessionId);
    await channel.until(() => ofSession(channel.findings).length >= final.counts.records && ofSession(channel.metadata).length >= final.counts.metadataPackets, 5_000, 'the session on the channel');

    // Findings: every record the channel gave, newest first, with its check.
    await until('every finding record on the page', 3_000, async () => (await page.$$('.live-findings tr.finding')).length === final.counts.records);
    const rows = (await datasets(page, '.live-findings tr.finding')).map((row) => ({ seq: Number(row.seq), checkId: row.check }));
    expect(rows).to.deep.equal(ofSession(channel.findings).map((finding) => ({ seq: finding.seq, checkId: finding.checkId })).reverse());
    expect(faults.every((fault) => ofSession(channel.findings).some((finding) => finding.packetIndex === fault.packetIndex))).to.equal(true);

    // Statistics: as many readings plotted as the channel gave, the latest shown as the channel gave it.
    const readings = ofSession(channel.statistics);
    await until('the latest reading on the page', 3_000, async () => Number(await page.getAttribute('.latest-reading', 'data-seq')) === readings.at(-1)?.seq);
    const latest = readings.at(-1) as GatewayLiveStatistics;
    // The charts redraw at most every 100 ms (later than the reading's numbers on a busy machine): wait for them, then hold them to the count.
    const chartPoints = async (chart: string) => Number(await page.getAttribute(`[data-chart="${chart}"]`, 'data-points'));
    await until('every reading plotted', 3_000, async () => (await chartPoints('bitrate')) === readings.length && (await chartPoints('packets')) === readings.length);
    expect(await chartPoints('bitrate')).to.equal(readings.length);
    expect(await chartPoints('packets')).to.equal(readings.length);
    expect(Number(await page.getAttribute('.latest-reading [data-field="packetsPerSecond"]', 'data-value'))).to.equal(latest.packetsPerSecond);
    expect(await page.textContent('.latest-reading [data-field="packetsPerSecond"]')).to.equal(latest.packetsPerSecond.toFixed(1));
    expect(Number(await page.getAttribute('.latest-reading [data-field="bitsPerSecond"]', 'data-value'))).to.equal(latest.bitsPerSecond);
    const busiest = readings.reduce((best, reading) => (reading.packetsPerSecond > best.packetsPerSecond ? reading : best));
    expect(busiest.pids.map((pid) => pid.pid)).to.include.members([0, 0x100, 0x102]);
    const pagePids = (await datasets(page, '.latest-reading .pid-rate')).map((span) => ({ pid: Number(span.pid), bitsPerSecond: Number(span.value) }));
    expect(pagePids).to.deep.equal(latest.pids.map((pid) => ({ pid: pid.pid, bitsPerSecond: pid.bitsPerSecond })));

    // The map: one platform point per metadata packet with a position.
    const positions = ofSession(channel.metadata).filter((packet) => {
      const values = frameKlvValues(packet.items);
      return values.sensorLatitudeDeg !== null && values.sensorLongitudeDeg !== null;
    }).length;
    expect(positions).to.be.above(90);
    await until('the whole track on the map', 3_000, async () => Number(await page.getAttribute('.live-map', 'data-platform-points')) === positions);
    expect(Number(await page.getAttribute('.live-map', 'data-metadata-packets'))).to.equal(final.counts.metadataPackets);
    await page.close();
  });

  it('shows the service refusal of a source URL at the field, and starts nothing', async () => {
    const page = await openSignedIn(session, service, '#/live');
    await page.waitForSelector('.live-source-form');
    const before = await service.api<{ active: unknown }>('GET', '/sessions/active');
    await page.fill('#live-source', 'udp://127.0.0.1:99999');
    await page.click('.live-source-form button.start');
    await page.waitForSelector('#live-source-problem');
    const refusal = await fetch(`${service.server.url}/sessions/live`, {
      method: 'POST',
      headers: { 'X-API-Key': TEST_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'udp://127.0.0.1:99999' }),
    });
    const body = (await refusal.json()) as { error: { code: string; message: string } };
    expect(refusal.status).to.equal(400);
    expect(await page.textContent('#live-source-problem')).to.equal(`${body.error.message} (${body.error.code})`);
    expect(await page.getAttribute('#live-source', 'aria-invalid')).to.equal('true');
    expect(await service.api('GET', '/sessions/active')).to.deep.equal(before);
    await saveScreenshot(page, 'dashboard-live-refused');
    await page.close();
  });
});
