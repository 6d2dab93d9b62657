import { expect } from 'chai';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { getConfigValue, setConfigValue, Store } from '@klvscope/core/store';
import * as z from 'zod/mini';
import { applyMergePatch, withoutEmptyObjects } from '../../src/inspection/json-merge-patch.js';
import { settingsSchema } from '../../src/inspection/inspection-settings.js';
import { startTestServer, tempDataDir, type TestServer } from './test-server.js';

const DEFAULTS = { browseRoots: ['/recordings'], jobs: { concurrency: 1 }, playback: { tokenTtlSeconds: 3600 }, live: { noDataSeconds: 5, persistSeconds: 5 } };

function start(dataDir = tempDataDir()): Promise<TestServer> {
  return startTestServer({ dataDir, defaultSettings: DEFAULTS });
}

describe('inspection service configuration', function () {
  it('answers the defaults on /config and /settings', async () => {
    const server = await start();
    try {
      for (const path of ['/config', '/settings']) expect(await server.call(path)).to.deep.include({ status: 200, json: DEFAULTS });
    } finally {
      await server.close();
    }
  });

  it("defaults the browse roots to the home folder and the data folder's recordings folder (made if missing)", async () => {
    const server = await startTestServer();
    try {
      const { homedir } = await import('node:os');
      const recordings = join(server.dataDir, 'recordings');
      expect((await server.call('/config')).json).to.deep.include({ browseRoots: [homedir(), recordings] });
      expect(statSync(recordings).isDirectory()).to.equal(true);
    } finally {
      await server.close();
    }
  });

  it('refuses a PATCH with an unknown key, naming it, and changes nothing', async () => {
    const server = await start();
    try {
      const result = await server.call('/config', { method: 'PATCH', body: { jobs: { concurrency: 2, priority: 'high' }, colour: 'red' } });
      expect(result.status).to.equal(400);
      expect(result.json).to.deep.equal({
        error: {
          code: 'ERR_INVALID_FIELD',
          message: 'invalid request: body.jobs.priority: unknown field; body.colour: unknown field',
          details: { fields: [{ in: 'body', field: 'jobs.priority', message: 'unknown field' }, { in: 'body', field: 'colour', message: 'unknown field' }] },
        },
      });
      expect((await server.call('/config')).json).to.deep.equal(DEFAULTS);
    } finally {
      await server.close();
    }
  });

  it('refuses values out of range or of the wrong type, naming each field', async () => {
    const server = await start();
    try {
      const result = await server.call('/settings', { method: 'PATCH', body: { browseRoots: ['/ok', 'relative/path'], jobs: { concurrency: 0 }, live: 'soon' } });
      expect(result.status).to.equal(400);
      expect((result.json as { error: { details: unknown } }).error.details).to.deep.equal({
        fields: [
          { in: 'body', field: 'browseRoots[1]', message: 'must be an absolute path' },
          { in: 'body', field: 'jobs.concurrency', message: 'Too small: expected number to be >=1' },
          { in: 'body', field: 'live', message: 'Invalid input: expected object, received string' },
        ],
      });
      const notObject = await server.call('/config', { method: 'PATCH', body: [1, 2] });
      expect(notObject.status).to.equal(400);
      expect((notObject.json as { error: { details: unknown } }).error.details).to.deep.equal({ fields: [{ in: 'body', field: '', message: 'Invalid input: expected record, received array' }] });
    } finally {
      await server.close();
    }
  });

  it('merges a valid PATCH, answers the whole configuration, and keeps it across a restart', async () => {
    const dataDir = tempDataDir();
    const first = await start(dataDir);
    const patched = await first.call('/config', { method: 'PATCH', body: { jobs: { concurrency: 3 }, browseRoots: ['/srv/a', '/srv/b'] } });
    expect(patched).to.deep.include({ status: 200, json: { ...DEFAULTS, jobs: { concurrency: 3 }, browseRoots: ['/srv/a', '/srv/b'] } });
    await first.call('/settings', { method: 'PATCH', body: { live: { noDataSeconds: 2.5 } }, headers: { 'content-type': 'application/merge-patch+json' } });
    await first.close();

    const second = await start(dataDir);
    try {
      expect((await second.call('/settings')).json).to.deep.equal({ ...DEFAULTS, jobs: { concurrency: 3 }, browseRoots: ['/srv/a', '/srv/b'], live: { noDataSeconds: 2.5, persistSeconds: 5 } });
    } finally {
      await second.close();
    }
  });

  it('stores only the changes, and gives a setting back its default on null', async () => {
    const dataDir = tempDataDir();
    const server = await start(dataDir);
    await server.call('/config', { method: 'PATCH', body: { jobs: { concurrency: 4 }, playback: { tokenTtlSeconds: 60 } } });
    const reset = await server.call('/config', { method: 'PATCH', body: { jobs: { concurrency: null } } });
    expect(reset.json).to.deep.equal({ ...DEFAULTS, playback: { tokenTtlSeconds: 60 } });
    await server.call('/config', { method: 'PATCH', body: { playback: null } });
    await server.close();
    const store = await Store.open({ dataDir });
    try {
      expect(getConfigValue(store.catalog.db, 'settings')).to.equal(undefined);
    } finally {
      await store.close();
    }
  });

  it('falls back to the default for a stored section that no longer fits the schema', async () => {
    const dataDir = tempDataDir();
    const store = await Store.open({ dataDir });
    setConfigValue(store.catalog.db, 'settings', { jobs: { concurrency: 99 }, removedSection: true, live: { noDataSeconds: 9 } }, Date.now());
    await store.close();
    const server = await start(dataDir);
    try {
      expect((await server.call('/config')).json).to.deep.equal({ ...DEFAULTS, live: { noDataSeconds: 9, persistSeconds: 5 } });
    } finally {
      await server.close();
    }
  });

  it('turns the schema into JSON Schema for the OpenAPI document', () => {
    const schema = z.toJSONSchema(settingsSchema) as { properties: Record<string, unknown>; additionalProperties: boolean; required: string[] };
    expect(Object.keys(schema.properties)).to.deep.equal(['browseRoots', 'jobs', 'playback', 'live']);
    expect(schema.additionalProperties).to.equal(false);
    expect(schema.properties.jobs).to.deep.equal({ type: 'object', properties: { concurrency: { type: 'integer', minimum: 1, maximum: 16 } }, required: ['concurrency'], additionalProperties: false });
  });
});

describe('JSON Merge Patch', function () {
  it('merges objects, replaces arrays and values, and deletes on null (RFC 7396)', () => {
    expect(applyMergePatch({ a: { b: 1, c: 2 }, d: [1, 2], e: 'x' }, { a: { b: null, f: 3 }, d: [3], e: { g: 1 } })).to.deep.equal({ a: { c: 2, f: 3 }, d: [3], e: { g: 1 } });
    expect(applyMergePatch({ a: 1 }, [1])).to.deep.equal([1]);
    expect(withoutEmptyObjects({ a: {}, b: { c: {} }, d: 1 })).to.deep.equal({ d: 1 });
  });

  it('keeps a __proto__ key as a key, never as a prototype', () => {
    const merged = applyMergePatch({}, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(merged)).to.equal(Object.prototype);
    expect(Object.keys(merged)).to.deep.equal(['__proto__']);
  });
});
