import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { generateTransportStream, parseFaultSpec } from '@klvscope/core';
import { repoRoot } from '../../../test-support/fixtures.js';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { call } from '../inspection/test-server.js';
import { startTestServer, tempDataDir } from '../inspection/test-server.js';
import type { LiveFinding, LiveSessionState } from '../../src/live/live-records.js';

const tsx = import.meta.resolve('tsx');

describe('a live session in the store', function () {
  this.timeout(60_000);

  it('keeps the findings written before the service is killed, and is marked interrupted at the next start', async () => {
    const dataDir = tempDataDir();
    const child = spawn(process.execPath, ['--conditions=source', '--import', tsx, join(repoRoot, 'gateway/src/cli/main.ts'), 'serve', '--data-dir', dataDir, '--port', '0'], { cwd: repoRoot, env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const base = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', (line) => resolve(/on (http:\/\/\S+)/.exec(line)?.[1] ?? ''));
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });
      const key = readFileSync(join(dataDir, 'api-key'), 'utf8').trim();
      await call(base, key, '/settings', { method: 'PATCH', body: { live: { persistSeconds: 0.5 } }, headers: { 'content-type': 'application/merge-patch+json' } });
      const port = await freeUdpPort();
      const session = (await call(base, key, '/sessions/live', { method: 'POST', body: { source: `udp://127.0.0.1:${port}` } })).json as LiveSessionState;
      const faults = ['drop-packet@0.3', 'drop-packet@0.6', 'drop-packet@0.9'].map((spec) => parseFaultSpec(spec));
      const { bytes } = generateTransportStream({ bitrate: 2_000_000, seed: 4, durationSeconds: 1.5, faults });
      const sender = createSocket('udp4');
      for (let at = 0; at < bytes.length; at += 1316) {
        await new Promise<void>((resolve, reject) => sender.send(bytes.subarray(at, at + 1316), port, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
      }
      sender.close();
      let seen: LiveFinding[] = [];
      // Three packets dropped within a second: the first a record at once, the rest counted in one (or, across a second's end, more).
      const occurrences = (): number => seen.reduce((sum, f) => sum + f.count, 0);
      for (let i = 0; i < 50 && occurrences() < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        seen = ((await call(base, key, `/sessions/${session.sessionId}/findings`)).json as { findings: LiveFinding[] }).findings;
      }
      expect(occurrences()).to.equal(3);
      expect(new Set(seen.map((f) => f.type))).to.deep.equal(new Set(['continuity-error']));
      // Two save intervals with nothing new, then the process dies without a word.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));

      const server = await startTestServer({ dataDir });
      try {
        const state = (await server.call(`/sessions/${session.sessionId}`)).json as LiveSessionState;
        expect(state).to.include({ kind: 'live', status: 'interrupted' });
        const kept = (await server.call(`/sessions/${session.sessionId}/findings`)).json as { total: number; findings: LiveFinding[] };
        expect(kept.findings).to.deep.equal(seen);
        expect((await server.call('/sessions/active')).json).to.deep.equal({ active: null });
      } finally {
        await server.close();
      }
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
