/**
 * The report's grouped problems over REST: a PCR gap is one problem naming
 * the four violations of three checks, and the report opens with one line per
 * kind of problem. Additive: the report keeps `topViolations` and its shape.
 */
import { expect } from 'chai';
import { parseFaultSpec } from '@klvscope/core';
import { fileTestServerForSuite, writeGenerated, type FileTestServer } from './file-test-server.js';

interface Report {
  topViolations: Array<{ checkId: string; offset: number }>;
  checks: Array<{ checkId: string; summary: { violations: number } }>;
  problems: Array<{ pid: number; t: number | null; offset: number; severity: string; checkIds: string[]; message: string; type: string | null; violations: number }>;
  problemKinds: Array<{ line: string; pid: number; checkIds: string[]; count: number; countIsLowerBound: boolean; firstT: number | null }>;
}

const PCR_CHECKS = ['mpegts-pcr-intervals', 'mpegts-pcr-monotonicity', 'mpegts-errors'];

describe('the report groups violations of one cause into one problem', function () {
  this.timeout(60_000);
  let server: FileTestServer;
  fileTestServerForSuite((started) => (server = started));

  it('names every check that saw a PCR gap in one problem, and opens with one line for the two gaps', async () => {
    const { path } = writeGenerated(server.root, 'two-pcr-gaps.ts', {
      durationSeconds: 6,
      bitrate: 1_500_000,
      seed: 3,
      faults: ['pcr-gap@1,durationMs=500', 'pcr-gap@4,durationMs=500'].map((spec) => parseFaultSpec(spec)),
    });
    const answer = await server.call('/automation/file-session/inspect', { method: 'POST', body: { filePath: path } });
    expect(answer.status).to.equal(200);
    const { report } = answer.json as { report: Report };
    expect(report.topViolations).to.have.length(8);
    expect(report.problems.map((problem) => [problem.pid, problem.checkIds, problem.violations])).to.deep.equal([
      [0x100, PCR_CHECKS, 4],
      [0x100, PCR_CHECKS, 4],
    ]);
    expect(report.problems[0].message).to.equal('PCR on PID 0x0100 547.456 ms after the previous one, more than 100 ms');
    expect(report.problems[0].type).to.equal('pcr-interval');
    expect(report.problemKinds).to.deep.equal([
      {
        line: 'PCR on PID 0x0100 547.456 ms after the previous one, more than 100 ms (the worst): 2 times, from 1.525 s',
        pid: 0x100,
        severity: 'error',
        checkIds: PCR_CHECKS,
        count: 2,
        countIsLowerBound: false,
        firstT: report.problems[0].t,
        worst: { message: report.problems[0].message, value: 547.456, unit: 'ms', t: report.problems[0].t },
      },
    ]);
  });
});
