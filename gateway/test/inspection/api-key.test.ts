import { expect } from 'chai';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '@klvscope/core/store';
import { apiKeyMatcher } from '../../src/http/api-key-guard.js';
import { generateApiKey, resolveApiKey } from '../../src/http/api-key.js';
import { createInspectionServer } from '../../src/inspection/inspection-server.js';
import { startTestServer, tempDataDir } from './test-server.js';

async function refusal(work: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await work();
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected a refusal');
}

describe('inspection service API key', function () {
  it('creates the key file at first start, owner-only, with 256 random bits, and uses it', async () => {
    const server = await startTestServer();
    try {
      const path = join(server.dataDir, 'api-key');
      expect(statSync(path).mode & 0o777).to.equal(0o600);
      expect(server.key).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(server.key, 'base64url')).to.have.length(32);
      expect(server.apiKey).to.deep.equal({ source: 'file', filePath: path, created: true });
      expect((await server.call('/config')).status).to.equal(200);
    } finally {
      await server.close();
    }
  });

  it('keeps the same key across restarts on the same data folder', async () => {
    const dataDir = tempDataDir();
    const first = await startTestServer({ dataDir });
    const key = first.key;
    await first.close();
    const second = await startTestServer({ dataDir });
    try {
      expect(second.key).to.equal(key);
      expect(second.apiKey.created).to.equal(false);
      expect((await second.call('/auth/status', { key })).status).to.equal(200);
    } finally {
      await second.close();
    }
  });

  it('takes KLVSCOPE_API_KEY over the key file, and does not create the file', async () => {
    const dataDir = tempDataDir();
    const envKey = 'env-key-0123456789-abcdef';
    const server = await startTestServer({ dataDir, env: { KLVSCOPE_API_KEY: ` ${envKey}\n` } });
    try {
      expect(existsSync(join(dataDir, 'api-key'))).to.equal(false);
      const status = await server.call('/auth/status', { key: envKey });
      expect(status.json).to.deep.include({ authenticated: true, keySource: 'environment', keyFile: null });
      expect((await server.call('/auth/status', { key: generateApiKey() })).status).to.equal(401);
    } finally {
      await server.close();
    }
  });

  it('takes the configured key over the environment and the file', async () => {
    const server = await startTestServer({ apiKey: 'configured-key-0123456789', env: { KLVSCOPE_API_KEY: 'env-key-0123456789-abcdef' } });
    try {
      expect((await server.call('/auth/status', { key: 'configured-key-0123456789' })).json).to.deep.include({ keySource: 'option' });
      expect((await server.call('/auth/status', { key: 'env-key-0123456789-abcdef' })).status).to.equal(401);
    } finally {
      await server.close();
    }
  });

  it('refuses a key too short or with spaces, and releases the data folder', async () => {
    const dataDir = tempDataDir();
    for (const key of ['short', 'a key with spaces inside']) {
      const error = await refusal(() => createInspectionServer({ dataDir, env: { KLVSCOPE_API_KEY: key }, log: { level: 'silent' } }));
      expect(error.code).to.equal('ERR_API_KEY_UNUSABLE');
      expect(error.message).to.equal('KLVSCOPE_API_KEY is not a usable API key: it needs 16 to 512 visible ASCII characters, no spaces');
    }
    await (await Store.open({ dataDir })).close();
  });

  it('refuses a key file other users can read, saying how to fix it', async function () {
    if (process.platform === 'win32') this.skip();
    const dataDir = tempDataDir();
    await (await startTestServer({ dataDir })).close();
    const path = join(dataDir, 'api-key');
    chmodSync(path, 0o644);
    const error = await refusal(() => startTestServer({ dataDir }));
    expect(error.code).to.equal('ERR_API_KEY_FILE_INSECURE');
    expect(error.message).to.equal(`the API key file ${path} can be read by other users (mode 644): run 'chmod 600 ${path}', or delete it to get a new key`);
    chmodSync(path, 0o600);
    await (await startTestServer({ dataDir })).close();
  });

  it('replaces an empty key file (a start killed before writing it) with a new key', async () => {
    const dataDir = tempDataDir();
    writeFileSync(join(dataDir, 'api-key'), '', { mode: 0o600 });
    const key = await resolveApiKey({ dataDir, env: {} });
    expect(key.value).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(join(dataDir, 'api-key'), 'utf8')).to.equal(`${key.value}\n`);
  });

  it('uses a key written into the file by hand', async () => {
    const dataDir = tempDataDir();
    writeFileSync(join(dataDir, 'api-key'), 'my-own-key-for-scripts-42\n', { mode: 0o600 });
    expect(await resolveApiKey({ dataDir, env: {} })).to.deep.equal({ value: 'my-own-key-for-scripts-42', source: 'file', filePath: join(dataDir, 'api-key'), created: false });
  });

  it('matches only the key itself, whatever the candidate’s length', () => {
    const matches = apiKeyMatcher('0123456789abcdef0123');
    expect(matches('0123456789abcdef0123')).to.equal(true);
    for (const candidate of ['', '0', '0123456789abcdef012', '0123456789abcdef01234', '0123456789abcdef0124', 'x'.repeat(10_000)]) expect(matches(candidate), candidate).to.equal(false);
  });
});
