import { expect } from 'chai';
import { parseFaultSpec, type GeneratorOptions, type InjectedFault } from '@klvscope/core';
import { DETAIL_ENDPOINT_IDS } from '@klvscope/plugins';
import { fileTestServerForSuite, writeGenerated, type FileTestServer } from './file-test-server.js';

interface DetailPoint {
  t: number | null;
  offset: number;
  packetIndex: number;
  pid: number;
  value: number | null;
  violation: boolean;
  severity: string;
  message: string;
  type: string | null;
}

interface Detail {
  checkId: string;
  title: string;
  version: string;
  fileHash: string;
  ingestRunId: string;
  summary: { points: number; violations: number; verdict: string; reason: string; value: { count: number; unit: string | null } | null };
  total: number;
  limit: number;
  offset: number;
  points: DetailPoint[];
}

type Expected = Partial<Record<(typeof DETAIL_ENDPOINT_IDS)[number], Array<[type: string, packetIndex: number]>>>;

const BASE: GeneratorOptions = { bitrate: 3_000_000, seed: 11, durationSeconds: 4 };
const faults = (...specs: string[]): GeneratorOptions['faults'] => specs.map((spec) => parseFaultSpec(spec));
const at = (found: readonly InjectedFault[], kind: string): number => {
  const fault = found.find((f) => f.kind === kind);
  if (!fault) throw new Error(`no ${kind} injected`);
  return fault.packetIndex;
};

/**
 * Streams with known faults and, for each check, the violations (type,
 * packet) it must report: exactly these, every other check none. The
 * packets are the generator's ground truth (core/src/gen/README.md).
 */
const STREAMS: Array<{ name: string; options: GeneratorOptions; expected: (found: InjectedFault[]) => Expected }> = [
  {
    name: 'MPEG-TS faults: a dropped packet, PAT, PMT, PCR and PTS gaps',
    options: { ...BASE, durationSeconds: 8, audio: true, faults: faults('drop-packet@1', 'pat-gap@2', 'pmt-gap@3.5', 'pcr-gap@5.5', 'pts-gap@6.5') },
    expected: (found) => ({
      'mpegts-errors': [
        ['continuity-error', at(found, 'drop-packet')],
        ['pat-missing', at(found, 'pat-gap')],
        ['pmt-missing', at(found, 'pmt-gap')],
        ['pcr-repetition', at(found, 'pcr-gap')],
        ['pcr-discontinuity', at(found, 'pcr-gap')],
        ['pts-repetition', at(found, 'pts-gap')],
      ],
      'mpegts-pcr-intervals': [['pcr-interval', at(found, 'pcr-gap')]],
      'mpegts-pat-intervals': [['pat-interval', at(found, 'pat-gap')]],
      'mpegts-pmt-intervals': [['pmt-interval', at(found, 'pmt-gap')]],
      'mpegts-pcr-monotonicity': [['pcr-jump', at(found, 'pcr-gap')]],
      'mpegts-max-pts-intervals': [['pts-interval', at(found, 'pts-gap')]],
    }),
  },
  {
    name: 'KLV content faults: checksum, unknown, duplicate and missing items, wrong key, a truncated packet',
    options: {
      ...BASE,
      durationSeconds: 5,
      klv: { carriage: 'sync' },
      faults: faults('klv-checksum@0.5', 'klv-unknown-tag@1', 'klv-duplicate-tag@1.5', 'klv-missing-timestamp@2', 'klv-wrong-key@2.5', 'klv-missing-version@3', 'klv-truncated@3.5'),
    },
    expected: (found) => ({
      'klv-checksum-errors': [['klv-checksum-error', at(found, 'klv-checksum')]],
      'klv-unknown-tag-errors': [['klv-unknown-tag', at(found, 'klv-unknown-tag')]],
      'klv-duplicate-tag-errors': [['klv-duplicate-tag', at(found, 'klv-duplicate-tag')]],
      'klv-mandatory-field-errors': [
        ['klv-missing-mandatory', at(found, 'klv-missing-timestamp')],
        ['klv-missing-mandatory', at(found, 'klv-missing-version')],
      ],
      'klv-universal-key-errors': [['unknown-key', at(found, 'klv-wrong-key')]],
      'klv-raw-decode-errors': [['klv-raw-decode-error', at(found, 'klv-truncated')]],
      // The truncated packet cannot be framed: the rhythm misses it at the next KLV packet (checked below).
      'klv-packet-rate-consistency': [['klv-dropout', -1]],
    }),
  },
  {
    name: 'KLV timing faults: a dropout, jitter, a time stamp reversal and a fast clock',
    options: { ...BASE, durationSeconds: 6, klv: { carriage: 'sync' }, faults: faults('klv-dropout@1,durationMs=300', 'klv-rate-jitter@2', 'klv-timestamp-reversal@3.5', 'klv-clock-drift@4.5,amountMs=100') },
    expected: (found) => ({
      'klv-packet-rate-consistency': [
        ['klv-dropout', at(found, 'klv-dropout')],
        ['klv-rate-jitter', at(found, 'klv-rate-jitter')],
      ],
      'klv-timestamp-monotonicity': [['klv-timestamp-reversal', at(found, 'klv-timestamp-reversal')]],
      'klv-stream-vs-klv-drift': [
        ['klv-drift-excursion', at(found, 'klv-timestamp-reversal')],
        ['klv-drift-excursion', at(found, 'klv-clock-drift')],
      ],
    }),
  },
  {
    name: 'a PCR jumping 1 s forward without discontinuity_indicator',
    options: { ...BASE, faults: faults('pcr-jump-forward@2') },
    expected: (found) => ({
      'mpegts-errors': [['pcr-discontinuity', at(found, 'pcr-jump-forward')]],
      'mpegts-pcr-monotonicity': [['pcr-jump', at(found, 'pcr-jump-forward')]],
      // Every PES from the jump on is 1 s off its delay (checked below).
      'mpegts-pcr-pts-drift': [],
    }),
  },
  { name: 'a clean stream with audio and synchronous KLV', options: { ...BASE, durationSeconds: 3, audio: true, klv: { carriage: 'sync' } }, expected: () => ({}) },
];

function detailPath(checkId: string, filePath: string, query = ''): string {
  return `/analysis/file/${checkId}?filePath=${encodeURIComponent(filePath)}${query}`;
}

describe('inspection service: the file-analysis detail endpoints', function () {
  this.timeout(120_000);
  let server: FileTestServer;
  fileTestServerForSuite((started) => (server = started));

  async function detail(checkId: string, filePath: string, query = ''): Promise<Detail> {
    const answer = await server.call(detailPath(checkId, filePath, query));
    expect(answer.status, answer.text).to.equal(200);
    return answer.json as Detail;
  }

  STREAMS.forEach(({ name, options, expected }, index) => {
    it(`${name}: every endpoint reports exactly the injected faults as violations, at their packets`, async () => {
      const { path, faults: found } = writeGenerated(server.root, `stream-${index}.ts`, options);
      const wanted = expected(found);
      for (const checkId of DETAIL_ENDPOINT_IDS) {
        const answer = await detail(checkId, path, '&violations=true');
        const got = answer.points.map((p): [string | null, number] => [p.type, p.packetIndex]);
        expect(answer).to.include({ checkId, total: answer.points.length, limit: 10_000, offset: 0 });
        expect(answer.points.every((p) => p.violation), checkId).to.equal(true);
        if (checkId === 'klv-packet-rate-consistency' && wanted[checkId]?.[0][1] === -1) {
          // At the first KLV packet after the truncated one, as the stored observations of the run place it.
          const packets = await server.call(`/automation/ingest-runs/${answer.ingestRunId}/klv/packets`);
          const rows = (packets.json as { rows: Array<{ packetIndex: number }> }).rows;
          const next = rows.find((row) => row.packetIndex > at(found, 'klv-truncated'))?.packetIndex;
          expect(got, checkId).to.deep.equal([['klv-dropout', next]]);
        } else if (checkId === 'mpegts-pcr-pts-drift' && wanted[checkId] !== undefined) {
          const jump = at(found, 'pcr-jump-forward');
          const all = await detail(checkId, path);
          const after = all.points.filter((p) => p.packetIndex >= jump);
          expect(answer.points).to.deep.equal(after);
          // Two seconds of 30 fps video after the jump.
          expect([after.length, after.every((p) => p.type === 'pts-before-pcr')]).to.deep.equal([60, true]);
        } else {
          expect(got, checkId).to.deep.equal(wanted[checkId] ?? []);
        }
        expect(answer.summary.violations, checkId).to.equal(answer.total);
      }
    });
  });

  it('answers a second call from the cache: no stage runs again', async () => {
    const { path } = writeGenerated(server.root, 'cached.ts', { ...BASE, faults: faults('pcr-gap@2') });
    const first = await detail('mpegts-pcr-intervals', path);
    const stagesBefore = await Promise.all(['analyze', 'ingest', 'process'].map((stage) => server.call(`/automation/files/${first.fileHash}/stages/${stage}`)));
    const second = await detail('mpegts-pcr-intervals', path);
    const other = await detail('mpegts-errors', path, '&violations=true');
    const stagesAfter = await Promise.all(['analyze', 'ingest', 'process'].map((stage) => server.call(`/automation/files/${first.fileHash}/stages/${stage}`)));
    expect(second).to.deep.equal(first);
    expect(other.ingestRunId).to.equal(first.ingestRunId);
    expect(stagesAfter.map((a) => a.json)).to.deep.equal(stagesBefore.map((a) => a.json));
    const runs = (await server.call(`/automation/files/${first.fileHash}/ingest-runs`)).json as { ingestRuns: unknown[] };
    expect(runs.ingestRuns).to.have.length(1);
  });

  it('gives every point with the check’s summary, and pages through them', async () => {
    const { path } = writeGenerated(server.root, 'paged.ts', { ...BASE, faults: faults('pcr-gap@2') });
    const all = await detail('mpegts-pcr-intervals', path);
    expect(all).to.include({ title: 'PCR intervals', total: all.summary.points });
    expect([all.summary.verdict, all.summary.violations, all.summary.value?.unit]).to.deep.equal(['fail', 1, 'ms']);
    expect(all.points[0]).to.include({ type: 'pcr-interval', pid: 0x100, violation: false, severity: 'info' });
    const pages: DetailPoint[] = [];
    for (let offset = 0; offset < all.total; offset += 40) {
      const page = await detail('mpegts-pcr-intervals', path, `&limit=40&offset=${offset}`);
      expect([page.total, page.limit, page.offset]).to.deep.equal([all.total, 40, offset]);
      pages.push(...page.points);
    }
    expect(pages).to.deep.equal(all.points);
    expect((await detail('mpegts-pcr-intervals', path, `&offset=${all.total}`)).points).to.deep.equal([]);
  });

  it('filters mpegts-errors by point type, comma-separated or repeated, and names an unknown type', async () => {
    const { path, faults: found } = writeGenerated(server.root, 'typed.ts', { ...BASE, durationSeconds: 6, faults: faults('drop-packet@1', 'pat-gap@2', 'pcr-gap@4') });
    const commas = await detail('mpegts-errors', path, '&types=pat-missing,continuity-error');
    const repeated = await detail('mpegts-errors', path, '&types=pat-missing&types=continuity-error');
    expect(commas.points.map((p) => [p.type, p.packetIndex])).to.deep.equal([
      ['continuity-error', at(found, 'drop-packet')],
      ['pat-missing', at(found, 'pat-gap')],
    ]);
    expect(repeated).to.deep.equal(commas);

    const unknown = await server.call(detailPath('mpegts-errors', path, '&types=pat-missing,cc-error'));
    expect(unknown.status).to.equal(400);
    expect(unknown.json).to.have.nested.property('error.code', 'ERR_INVALID_FIELD');
    const [field] = (unknown.json as { error: { details: { fields: Array<{ in: string; field: string; message: string }> } } }).error.details.fields;
    expect([field.in, field.field]).to.deep.equal(['query', 'types']);
    expect(field.message).to.match(/^unknown point type 'cc-error' \(known: sync-loss, .*pts-repetition\)$/);

    const elsewhere = await server.call(detailPath('mpegts-pcr-intervals', path, '&types=pcr-interval'));
    expect(elsewhere.status).to.equal(400);
    expect(elsewhere.json).to.have.deep.nested.property('error.details.fields', [{ in: 'query', field: 'types', message: 'unknown field' }]);
  });

  it('refuses a missing filePath, a limit out of range and a bad violations flag, naming each', async () => {
    const { path } = writeGenerated(server.root, 'params.ts', BASE);
    const noPath = await server.call('/analysis/file/mpegts-errors');
    expect(noPath.status).to.equal(400);
    expect(noPath.json).to.have.nested.property('error.details.fields[0].field', 'filePath');
    const bad = await server.call(detailPath('mpegts-errors', path, '&limit=100001&violations=yes'));
    expect(bad.status).to.equal(400);
    expect((bad.json as { error: { details: { fields: Array<{ field: string }> } } }).error.details.fields.map((f) => f.field)).to.deep.equal(['limit', 'violations']);
    expect((await server.call('/analysis/file/mpegts-nothing?filePath=/x')).status).to.equal(404);
  });

  it('follows the current rules: a changed threshold re-runs process over the same ingest run; a disabled check has no points', async () => {
    const { path } = writeGenerated(server.root, 'rules.ts', { ...BASE, seed: 12, faults: faults('pcr-gap@2') });
    const strict = await detail('mpegts-pcr-intervals', path, '&violations=true');
    expect(strict.total).to.equal(1);
    try {
      const relaxed = await server.call('/validation-rules/current', { method: 'PUT', body: { checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 300 } }, shared: { disabledChecks: ['klv-checksum-errors'] } } });
      expect(relaxed.status, relaxed.text).to.equal(200);
      const lenient = await detail('mpegts-pcr-intervals', path, '&violations=true');
      expect([lenient.total, lenient.ingestRunId, lenient.fileHash]).to.deep.equal([0, strict.ingestRunId, strict.fileHash]);
      const disabled = await server.call(detailPath('klv-checksum-errors', path));
      expect(disabled.status).to.equal(404);
      expect(disabled.json).to.have.nested.property('error.code', 'ERR_CHECK_NOT_FOUND');
    } finally {
      await server.call('/validation-rules/current', { method: 'PUT', body: {} });
    }
    // Back under the first rules: their points are still stored, nothing runs again.
    expect(await detail('mpegts-pcr-intervals', path, '&violations=true')).to.deep.equal(strict);
  });

  it('says not-applicable for the KLV checks of a stream without KLV', async () => {
    const { path } = writeGenerated(server.root, 'no-klv.ts', BASE);
    const answer = await detail('klv-checksum-errors', path);
    expect([answer.summary.verdict, answer.total]).to.deep.equal(['not-applicable', 0]);
  });
});
