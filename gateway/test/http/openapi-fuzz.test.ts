/**
 * Issue 35: every operation of the three services, fuzzed from each one's
 * OpenAPI document with fast-check (openapi-fuzz-run.ts, in a private
 * network namespace), a fixed seed and a few requests per operation. The
 * benchmark run is the same script with more (docs/hostile-clients.md).
 */
import { expect } from 'chai';
import { privateNetworkUnavailableReason, runInPrivateNetwork } from '../../../test-support/private-network.js';

const RUNS_PER_OPERATION = 8;

interface FuzzSummary {
  summary: Record<string, { operations: Record<string, { requests: number; statuses: Record<string, number> }>; requests: number; defects: unknown[] }>;
}

describe('the REST surfaces under requests made from their OpenAPI documents', function () {
  this.timeout(600_000);
  let result: FuzzSummary;

  before(async function () {
    const reason = privateNetworkUnavailableReason();
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    const run = await runInPrivateNetwork('gateway/test/http/openapi-fuzz-run.ts', [String(RUNS_PER_OPERATION), '35'], { timeoutMs: 580_000 });
    expect(run.exitCode, run.stderr).to.equal(0);
    result = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as FuzzSummary;
  });

  for (const service of ['inspection', 'relay', 'streaming']) {
    it(`answers every request to the ${service} service below 500, with the JSON error body on each 4xx, and a refused change changes nothing`, () => {
      const fuzzed = result.summary[service];
      expect(fuzzed.defects).to.deep.equal([]);
      // Every operation was reached, most of them past their validation too (some 2xx, not only refusals).
      const operations = Object.values(fuzzed.operations);
      expect(operations.every((operation) => operation.requests >= RUNS_PER_OPERATION / 2)).to.equal(true);
      const statuses = operations.flatMap((operation) => Object.keys(operation.statuses).map(Number));
      expect(statuses.some((status) => status < 300)).to.equal(true);
      expect(statuses.some((status) => status >= 400)).to.equal(true);
    });
  }
});
