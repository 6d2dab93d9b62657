import { expect } from 'chai';
import { Validator } from '@seriousme/openapi-schema-validator';
import { SPEC_ENDPOINTS } from './spec-endpoints.js';
import { startTestServer, type TestServer } from './test-server.js';

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { parameters: Array<{ name: string; in: string }>; requestBody?: unknown }>>;
}

describe('inspection service: OpenAPI document', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('is public, passes an OpenAPI 3 validator, and lists exactly the automation and export routes', async () => {
    const response = await server.call('/openapi.json', { key: null });
    expect(response.status).to.equal(200);
    const document = response.json as OpenApiDocument;
    const result = await new Validator().validate(structuredClone(document) as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    expect(document.openapi).to.equal('3.1.0');

    const listed = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    // Spec "Versioning" 3: file-session, file-session/inspect, files/lookup, stages, ingest runs, latest, ingest-runs/{id} and the raw exports.
    const automation = SPEC_ENDPOINTS.filter((endpoint) => endpoint.split(' ')[1].startsWith('/automation/'));
    expect(automation).to.have.length(16);
    // Additive, beside the spec's: the fleet's batch (docs/fleet.md).
    const fleet = ['POST /automation/batch', 'GET /automation/batch/{id}'];
    // Additive: the flight as GIS files (docs/rest.md).
    const track = ['GET /automation/ingest-runs/{id}/klv/track'];
    expect(listed.sort()).to.deep.equal([...automation, ...fleet, ...track].sort());
  });

  it('describes parameters and bodies from the schemas the routes validate with', async () => {
    const document = (await server.call('/openapi.json', { key: null })).json as OpenApiDocument;
    const stages = document.paths['/automation/files/{hash}/stages/{stage}']?.get;
    expect(stages?.parameters.map((p) => `${p.in}:${p.name}`)).to.include.members(['path:hash', 'path:stage']);
    expect(document.paths['/automation/file-session/inspect']?.post.requestBody).to.have.nested.property('content.application/json.schema.properties.filePath');
    const errors = document.paths['/automation/ingest-runs/{id}/mpegts/errors']?.get;
    expect(errors?.parameters.map((p) => p.name)).to.include('types');
  });
});
