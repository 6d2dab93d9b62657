import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { join } from 'node:path';
import { generateTransportStream, parseFaultSpec } from '@klvscope/core';
import { repoRoot } from '../../../test-support/fixtures.js';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import type { LiveFinding } from '../../src/live/live-records.js';
import { testServerForSuite, type TestServer } from '../inspection/test-server.js';

interface Watched {
  status: number | null;
  stdout: string;
  stderr: string;
}

const tsx = import.meta.resolve('tsx');

/** The real CLI in a child process, without blocking this one (the server under test answers it). */
function watch(args: string[], whenConnected: () => Promise<void> = () => Promise.resolve()): Promise<Watched> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', tsx, join(repoRoot, 'gateway/src/cli/main.ts'), 'watch', ...args], { cwd: repoRoot, env: {} });
  let stdout = '';
  let stderr = '';
  let connected = false;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (!connected && stderr.includes('connected to')) {
      connected = true;
      void whenConnected();
    }
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) => {
    child.on('close', (status) => {
      clearTimeout(killer);
      resolve({ status, stdout, stderr });
    });
  });
}

describe('klvscope watch', function () {
  this.timeout(60_000);
  let server: TestServer;
  testServerForSuite((started) => (server = started));

  it('prints the live findings of the checks asked for as they arrive, and exits after --max of them', async () => {
    const port = await freeUdpPort();
    expect((await server.call('/sessions/live', { method: 'POST', body: { source: `udp://127.0.0.1:${port}` } })).status).to.equal(201);
    const faults = ['drop-packet@0.5', 'drop-packet@1', 'drop-packet@1.5'].map((spec) => parseFaultSpec(spec));
    const { bytes } = generateTransportStream({ bitrate: 2_000_000, seed: 9, durationSeconds: 2, faults });
    const send = async (): Promise<void> => {
      const sender = createSocket('udp4');
      for (let at = 0; at < bytes.length; at += 1316) {
        await new Promise<void>((resolve, reject) => sender.send(bytes.subarray(at, at + 1316), port, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
      }
      sender.close();
    };
    const result = await watch(['--port', String(server.port), '--api-key', server.key, '--check', 'mpegts-errors', '--json', '--max', '3'], send);
    await server.call('/sessions/active', { method: 'DELETE' });
    expect(result.status, result.stderr).to.equal(0);
    const findings = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as LiveFinding);
    // Three drops in a second or two: records of one kind whose counts make three (the first of a second at once, the rest in one).
    expect(new Set(findings.map((f) => `${f.checkId} ${f.type}`))).to.deep.equal(new Set(['mpegts-errors continuity-error']));
    expect(findings.reduce((sum, f) => sum + f.count, 0)).to.equal(3);
  });

  it('refuses a wrong API key with exit code 2 and says why', async () => {
    const result = await watch(['--port', String(server.port), '--api-key', 'not-the-key']);
    expect(result.status, result.stderr).to.equal(2);
    expect(result.stderr).to.match(/API key/);
  });

  it('refuses a bad --severity before connecting', async () => {
    const result = await watch(['--port', String(server.port), '--api-key', server.key, '--severity', 'loud']);
    expect(result.status).to.equal(2);
    expect(result.stderr).to.include('--severity must be info, warning or error');
  });
});
