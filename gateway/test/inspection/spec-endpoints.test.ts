import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir } from '../../../test-support/fixtures.js';
import { inspectionRoutesOf } from '../../src/inspection/inspection-server.js';
import { SPEC_ENDPOINTS, endpointsOfSpec } from './spec-endpoints.js';
import { startTestServer, type TestServer } from './test-server.js';

const specPath = join(fixturesDir, '..', 'spec', 'inspection-service.md');

describe('inspection service against its spec', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('pins exactly the endpoints of the spec’s tables', function () {
    if (!existsSync(specPath)) {
      console.log(`      skipped: ${specPath} not found (the pinned list is checked against the server below all the same)`);
      this.skip();
    }
    const fromSpec = endpointsOfSpec(readFileSync(specPath, 'utf8'));
    expect(fromSpec.length).to.be.greaterThan(60);
    expect([...fromSpec].sort()).to.deep.equal([...SPEC_ENDPOINTS].sort());
  });

  it('serves every method and path of the spec', () => {
    const served = new Set(inspectionRoutesOf(server.app).map((r) => `${r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`));
    const missing = SPEC_ENDPOINTS.filter((endpoint) => !served.has(endpoint));
    expect(missing, 'endpoints of the spec not served').to.deep.equal([]);
  });
});
