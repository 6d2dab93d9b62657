import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '@klvscope/core/store';
import { repoRoot } from '../../../test-support/fixtures.js';
import { APP_VERSION } from '../../src/app-version.js';
import { runCli } from '../cli/run-cli.js';
import { startService, type ServiceProcess } from '../cli/service-process.js';
import { tempDataDir } from './test-server.js';

/** Starts `klvscope serve` from the TypeScript sources and waits for its banner. */
function serve(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServiceProcess> {
  return startService(['serve', ...args], /on (http:\/\/\S+\/api\/v1)/, 'Ctrl+C', env);
}

describe('klvscope serve', function () {
  this.timeout(30_000);

  it('prints the base URL and the key file, answers on it, and stops cleanly on SIGTERM', async () => {
    const dataDir = tempDataDir();
    const server = await serve(['--data-dir', dataDir, '--port', '0']);
    try {
      expect(server.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      expect(server.url).to.not.match(/:0\//);
      const keyFile = join(dataDir, 'api-key');
      expect(server.stdout()).to.include(`API key    ${keyFile} (new)  (send it in the X-API-Key header)`).and.to.include(`data       ${dataDir}`);
      expect(await (await fetch(`${server.url}/health`)).json()).to.deep.include({ status: 'ok' });
      const key = readFileSync(keyFile, 'utf8').trim();
      expect((await fetch(`${server.url}/config`, { headers: { 'x-api-key': key } })).status).to.equal(200);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).to.equal(0);
    expect(server.stdout()).to.match(/klvscope: stopped\n$/);
    // The lock is released and the catalog closed: the folder opens again.
    await (await Store.open({ dataDir })).close();
  });

  it('reads the data folder and the port from KLVSCOPE_DATA_DIR and KLVSCOPE_PORT, and stops on SIGINT', async () => {
    const dataDir = tempDataDir();
    const server = await serve([], { KLVSCOPE_DATA_DIR: dataDir, KLVSCOPE_PORT: '0', KLVSCOPE_API_KEY: 'env-key-0123456789abcdef' });
    try {
      expect(server.stdout()).to.include('API key    from KLVSCOPE_API_KEY').and.to.include(`data       ${dataDir}`);
      expect((await fetch(`${server.url}/auth/status`, { headers: { 'x-api-key': 'env-key-0123456789abcdef' } })).status).to.equal(200);
    } finally {
      server.child.kill('SIGINT');
    }
    expect(await server.exited).to.equal(0);
    await (await Store.open({ dataDir })).close();
  });

  it('refuses a data folder another process holds: exit 2 naming it', async () => {
    const dataDir = tempDataDir();
    const holder = await Store.open({ dataDir });
    try {
      const result = runCli(['serve', '--data-dir', dataDir, '--port', '0']);
      expect(result.status).to.equal(2);
      expect(result.stderr).to.match(/^klvscope: /).and.to.include(dataDir).and.to.include(String(process.pid));
    } finally {
      await holder.close();
    }
  });

  it('refuses a host that is not loopback and a bad port: exit 2 with the reason', () => {
    const host = runCli(['serve', '--data-dir', tempDataDir(), '--host', '0.0.0.0']);
    expect(host.status).to.equal(2);
    expect(host.stderr).to.equal("klvscope: refusing to listen on '0.0.0.0': the inspection service binds to the loopback interface only (127.0.0.0/8, ::1 or localhost)\n");
    const port = runCli(['serve', '--data-dir', tempDataDir(), '--port', '70000']);
    expect(port.status).to.equal(2);
    expect(port.stderr).to.equal("klvscope: --port must be a port number from 0 to 65535 (0: any free port), got '70000'\n");
  });

  it('reports the version of package.json', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'gateway/package.json'), 'utf8')) as { version: string };
    expect(APP_VERSION).to.equal(pkg.version);
    expect(runCli(['--version']).stdout.trim()).to.equal(APP_VERSION);
  });
});
