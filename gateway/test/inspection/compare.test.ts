/**
 * GET /api/v1/compare?a=…&b=… on a real service over real sockets: a
 * recording and the same recording with a PCR gap and a KLV checksum error
 * (as after a change of link) side by side, each figure equal to its own
 * report's, `changed` exactly where they differ; and the JSON error body for
 * every bad request.
 */
import { expect } from 'chai';
import { parseFaultSpec, type GeneratorOptions } from '@klvscope/core';
import { fileTestServerForSuite, writeGenerated, type FileTestServer } from './file-test-server.js';

interface Side {
  verdict: string;
  violations: number;
  points: number;
}
interface Comparison {
  a: { path: string; verdict: string };
  b: { path: string; verdict: string };
  verdict: { a: string; b: string; changed: boolean };
  totals: { packets: { a: number; b: number; changed: boolean } };
  pids: Array<{ key: number; a: { packets: number } | null; b: { packets: number } | null; changed: boolean }>;
  klv: Array<{ key: number; a: { checksumFailures: number } | null; b: { checksumFailures: number } | null; changed: boolean }>;
  checks: Array<{ key: string; title: string; a: Side | null; b: Side | null; changed: boolean }>;
}
interface Report {
  verdict: string;
  inventory: { totalPackets: number };
  checks: Array<{ checkId: string; summary: { verdict: string; violations: number; points: number } }>;
}

const RECORDING: GeneratorOptions = { durationSeconds: 4, bitrate: 1_500_000, seed: 21, klv: { carriage: 'sync' } };

describe('GET /compare: two recordings side by side', function () {
  this.timeout(90_000);
  let server: FileTestServer;
  let before: string;
  let after: string;
  fileTestServerForSuite((started) => {
    server = started;
    before = writeGenerated(server.root, 'before.ts', RECORDING).path;
    after = writeGenerated(server.root, 'after.ts', { ...RECORDING, faults: ['pcr-gap@1.5', 'klv-checksum@2.5'].map((spec) => parseFaultSpec(spec)) }).path;
  });

  const comparePath = (a: string, b: string) => `/compare?${new URLSearchParams({ a, b }).toString()}`;
  const reportOf = async (filePath: string) =>
    ((await server.call('/automation/file-session/inspect', { method: 'POST', body: { filePath } })).json as { report: Report }).report;

  it('gives each check of both files as its own report has it, changed where the faults are', async () => {
    const answer = await server.call(comparePath(before, after));
    expect(answer.status, answer.text).to.equal(200);
    const comparison = answer.json as Comparison;
    const [reportA, reportB] = [await reportOf(before), await reportOf(after)];
    expect([comparison.a.path, comparison.b.path]).to.deep.equal([before, after]);
    expect(comparison.verdict).to.deep.equal({ a: 'pass', b: 'fail', changed: true });
    expect(comparison.totals.packets).to.deep.equal({ a: reportA.inventory.totalPackets, b: reportB.inventory.totalPackets, changed: reportA.inventory.totalPackets !== reportB.inventory.totalPackets });
    expect(comparison.checks.map((row) => row.key)).to.deep.equal(reportA.checks.map((check) => check.checkId));
    for (const row of comparison.checks) {
      const [checkA, checkB] = [reportA, reportB].map((report) => report.checks.find((check) => check.checkId === row.key)?.summary);
      expect({ id: row.key, a: row.a && [row.a.verdict, row.a.violations, row.a.points], b: row.b && [row.b.verdict, row.b.violations, row.b.points] }).to.deep.equal({
        id: row.key,
        a: checkA && [checkA.verdict, checkA.violations, checkA.points],
        b: checkB && [checkB.verdict, checkB.violations, checkB.points],
      });
    }
    const verdictChanged = comparison.checks.filter((row) => row.a?.verdict !== row.b?.verdict).map((row) => row.key).sort();
    expect(verdictChanged).to.deep.equal(['klv-checksum-errors', 'mpegts-errors', 'mpegts-pcr-intervals', 'mpegts-pcr-monotonicity']);
    expect(comparison.checks.find((row) => row.key === 'klv-checksum-errors')?.changed).to.equal(true);
    expect(comparison.klv.map((row) => [row.a?.checksumFailures, row.b?.checksumFailures, row.changed])).to.deep.equal([[0, 1, true]]);
  });

  it('finds nothing changed between a file and itself', async () => {
    const comparison = (await server.call(comparePath(before, before))).json as Comparison;
    expect(comparison.verdict.changed).to.equal(false);
    expect([...comparison.pids, ...comparison.klv, ...comparison.checks].filter((row) => row.changed)).to.deep.equal([]);
  });

  it('answers the JSON error body for a missing file, a path outside the roots, a file that is not there, and no key', async () => {
    const missing = await server.call(`/compare?${new URLSearchParams({ a: before }).toString()}`);
    expect(missing.status).to.equal(400);
    expect(missing.json).to.have.nested.property('error.code', 'ERR_INVALID_FIELD');
    expect((missing.json as { error: { details: { fields: Array<{ field: string }> } } }).error.details.fields.map((field) => field.field)).to.deep.equal(['b']);

    const outside = await server.call(comparePath(before, '/etc/passwd'));
    expect(outside.status).to.equal(403);
    expect(outside.json).to.have.nested.property('error.code', 'ERR_FILE_OUTSIDE_ROOTS');

    const gone = await server.call(comparePath(`${server.root}/no-such-file.ts`, after));
    expect(gone.status).to.equal(422);
    expect(gone.json).to.have.nested.property('error.code', 'ERR_FILE_NOT_FOUND');

    const anonymous = await server.call(comparePath(before, after), { key: null });
    expect(anonymous.status).to.equal(401);
    expect(anonymous.json).to.have.nested.property('error.code', 'ERR_API_KEY_MISSING');
  });
});
