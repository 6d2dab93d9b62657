import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { CoreError } from '@klvscope/core';
import { DatasetError, StoreError } from '@klvscope/core/store';
import { WorkflowError } from '@klvscope/core/workflow';
import { AdapterError } from '@klvscope/adapters';
import { RulesError } from '@klvscope/rules';
import { repoRoot } from '../../../test-support/fixtures.js';
import { errorResponse } from '../../src/http/error-response.js';
import { ERROR_STATUS } from '../../src/http/error-status.js';
import { defineRoute, type RouteModule } from '../../src/http/service-route.js';
import { startTestServer, type TestServer } from './test-server.js';

const THROWN: Record<string, () => Error> = {
  'no-session': () => new WorkflowError('ERR_NO_ACTIVE_SESSION', 'no active file session'),
  'job-finished': () => new WorkflowError('ERR_JOB_FINISHED', 'job j1 has finished', { id: 'j1' }),
  'job-unknown': () => new WorkflowError('ERR_JOB_NOT_FOUND', 'no job j2', { id: 'j2' }),
  'not-ts': () => new WorkflowError('ERR_NOT_TRANSPORT_STREAM', '/tmp/a.txt holds no MPEG-TS packets'),
  'no-file': () => new AdapterError('ERR_FILE_NOT_FOUND', 'no file at /tmp/none.ts', { path: '/tmp/none.ts' }),
  'locked': () => new StoreError('ERR_STORE_LOCKED', 'the data folder is held by pid 1'),
  'dataset-param': () => new DatasetError('ERR_DATASET_INVALID_PARAMETER', 'limit must be 1 to 10000', { parameter: 'limit' }),
  'dataset-unknown': () => new DatasetError('ERR_DATASET_UNKNOWN', 'no dataset mpegts/nope'),
  'rules': () => new RulesError('ERR_RULES_INVALID', 'the rule set does not fit', ['checks.x: unknown check']),
  'check-unknown': () => new CoreError('ERR_CHECK_NOT_FOUND', 'no check nope'),
  'corrupt': () => new StoreError('ERR_STORE_CORRUPT', 'catalog /home/me/secret/catalog.sqlite is not SQLite'),
  'plain': () => new Error('cannot read /home/me/secret/config at offset 42'),
  'type-error': () => new TypeError("Cannot read properties of undefined (reading 'hash')"),
};

const throwingRoutes: RouteModule = () => [
  defineRoute({
    method: 'GET',
    path: '/test/throw/:what',
    summary: 'throws the error named',
    schemas: { params: z.object({ what: z.string() }) },
    handle: ({ params }) => {
      throw THROWN[params.what]();
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/test/echo/:n',
    summary: 'echoes a validated input',
    schemas: { params: z.object({ n: z.coerce.number().check(z.int(), z.minimum(1)) }), query: z.strictObject({ mode: z.optional(z.enum(['a', 'b'])) }), body: z.strictObject({ name: z.string() }) },
    handle: ({ params, query, body }) => ({ n: params.n, mode: query.mode ?? null, name: body.name }),
  }),
];

describe('inspection service errors', function () {
  let server: TestServer;
  const logLines: string[] = [];

  before(async () => {
    server = await startTestServer({ routes: [throwingRoutes], log: { level: 'error', stream: { write: (line) => logLines.push(line) } } });
  });
  after(async () => {
    await server.close();
  });

  async function thrown(what: string): Promise<{ status: number; json: unknown }> {
    const { status, json } = await server.call(`/test/throw/${what}`);
    return { status, json };
  }

  it('answers an internal error with 500 and nothing of it but the request id, and logs the real error', async () => {
    for (const what of ['plain', 'type-error', 'corrupt']) {
      logLines.length = 0;
      const result = await server.call(`/test/throw/${what}`);
      expect(result.status, what).to.equal(500);
      const body = result.json as { error: { code: string; message: string; details: { requestId: string } } };
      expect(body.error.code).to.equal('ERR_INTERNAL');
      expect(body.error.message).to.equal('internal error: the service log has the details');
      expect(Object.keys(body.error.details)).to.deep.equal(['requestId']);
      expect(result.text).to.not.match(/secret|offset|hash|stack|at .*\.ts/);
      const logged = logLines.map((line) => JSON.parse(line) as { reqId: string; err: { message: string; stack: string } });
      expect(logged).to.have.length(1);
      expect(logged[0].reqId).to.equal(body.error.details.requestId);
      expect(logged[0].err.message).to.equal(THROWN[what]().message);
      expect(logged[0].err.stack).to.be.a('string');
    }
  });

  it('answers each package’s coded errors with the status of the table, their code, message and details', async () => {
    expect(await thrown('no-session')).to.deep.equal({ status: 409, json: { error: { code: 'ERR_NO_ACTIVE_SESSION', message: 'no active file session' } } });
    expect(await thrown('job-finished')).to.deep.equal({ status: 409, json: { error: { code: 'ERR_JOB_FINISHED', message: 'job j1 has finished', details: { id: 'j1' } } } });
    expect((await thrown('job-unknown')).status).to.equal(404);
    expect((await thrown('not-ts')).status).to.equal(422);
    expect(await thrown('no-file')).to.deep.equal({ status: 422, json: { error: { code: 'ERR_FILE_NOT_FOUND', message: 'no file at /tmp/none.ts', details: { path: '/tmp/none.ts' } } } });
    expect((await thrown('locked')).status).to.equal(409);
    expect((await thrown('dataset-param')).status).to.equal(400);
    expect((await thrown('dataset-unknown')).status).to.equal(404);
    expect((await thrown('check-unknown')).status).to.equal(404);
    expect(await thrown('rules')).to.deep.equal({ status: 422, json: { error: { code: 'ERR_RULES_INVALID', message: 'the rule set does not fit', details: { problems: ['checks.x: unknown check'] } } } });
  });

  it('names every invalid field of params, query and body in one 400', async () => {
    const result = await server.call('/test/echo/0?mode=c&extra=1', { method: 'POST', body: { name: 3, colour: 'red' } });
    expect(result.status).to.equal(400);
    expect(result.json).to.deep.equal({
      error: {
        code: 'ERR_INVALID_FIELD',
        message: 'invalid request: params.n: Too small: expected number to be >=1; query.mode: Invalid option: expected one of "a"|"b"; query.extra: unknown field; body.name: Invalid input: expected string, received number; body.colour: unknown field',
        details: {
          fields: [
            { in: 'params', field: 'n', message: 'Too small: expected number to be >=1' },
            { in: 'query', field: 'mode', message: 'Invalid option: expected one of "a"|"b"' },
            { in: 'query', field: 'extra', message: 'unknown field' },
            { in: 'body', field: 'name', message: 'Invalid input: expected string, received number' },
            { in: 'body', field: 'colour', message: 'unknown field' },
          ],
        },
      },
    });
  });

  it('gives the handler the parsed input', async () => {
    const result = await server.call('/test/echo/7?mode=b', { method: 'POST', body: { name: 'x' } });
    expect(result).to.deep.include({ status: 200, json: { n: 7, mode: 'b', name: 'x' } });
  });

  it('says a missing body is one', async () => {
    const result = await server.call('/test/echo/7', { method: 'POST' });
    expect(result.status).to.equal(400);
    expect((result.json as { error: { details: unknown } }).error.details).to.deep.equal({ fields: [{ in: 'body', field: '', message: 'Invalid input: expected object, received undefined' }] });
  });

  it('translates Fastify’s own errors into the table’s codes', () => {
    const fastifyError = (code: string, statusCode: number, message: string) => Object.assign(new Error(message), { code, statusCode });
    expect(errorResponse(fastifyError('FST_ERR_CTP_INVALID_JSON_BODY', 400, "Body is not valid JSON but content-type is set to 'application/json'")).body.error.code).to.equal('ERR_MALFORMED_JSON');
    expect(errorResponse(fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413, 'Request body is too large'), { bodyLimitBytes: 10 })).to.deep.equal({
      status: 413,
      body: { error: { code: 'ERR_BODY_TOO_LARGE', message: 'the request body is over the limit of 10 bytes', details: { limitBytes: 10 } } },
      internal: false,
    });
    expect(errorResponse(fastifyError('FST_ERR_BAD_URL', 400, "'%zz' is not a valid url component"))).to.deep.equal({
      status: 400,
      body: { error: { code: 'ERR_BAD_REQUEST', message: "'%zz' is not a valid url component", details: { reason: 'FST_ERR_BAD_URL' } } },
      internal: false,
    });
    expect(errorResponse(fastifyError('FST_ERR_REP_INVALID_PAYLOAD_TYPE', 500, 'bad payload'), { requestId: 'req-9' })).to.deep.equal({
      status: 500,
      body: { error: { code: 'ERR_INTERNAL', message: 'internal error: the service log has the details', details: { requestId: 'req-9' } } },
      internal: true,
    });
  });

  it('answers a URL with a bad escape with 400 ERR_BAD_REQUEST', async () => {
    const result = await server.call('/test/throw/%zz');
    expect(result.status).to.equal(400);
    expect((result.json as { error: { code: string } }).error.code).to.equal('ERR_BAD_REQUEST');
  });

  it('lists in docs/rest.md exactly the codes and statuses of the table', () => {
    const doc = readFileSync(join(repoRoot, 'docs/rest.md'), 'utf8');
    const documented: Record<string, number> = {};
    for (const match of doc.matchAll(/^\| (\d{3}) \| ([^|]+) \|/gm)) {
      for (const code of match[2].matchAll(/`(ERR_[A-Z_]+)`/g)) documented[code[1]] = Number(match[1]);
    }
    expect(documented).to.deep.equal({ ...ERROR_STATUS });
  });
});
