import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTransportStream } from '@klvscope/core';
import { openUdpSource, type UdpSource } from '@klvscope/adapters';
import { repoRoot } from '../../../test-support/fixtures.js';
import { runCli } from './run-cli.js';

// Unicast to 127.0.0.1 only: nothing here leaves the machine.
describe('klvscope replay', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'klvscope-replay-cli-'));
  const file = join(dir, 'stream.ts');
  const { bytes } = generateTransportStream({ durationSeconds: 0.5, bitrate: 2_000_000 });
  writeFileSync(file, bytes);
  let source: UdpSource;
  let received: number;

  beforeEach(async () => {
    source = await openUdpSource('udp://127.0.0.1:0');
    received = 0;
    void (async () => {
      for await (const chunk of source) received += chunk.bytes.length;
    })();
  });

  afterEach(() => source.close());

  it('sends the file to the address and prints a summary', async () => {
    const result = runCli(['replay', file, `udp://127.0.0.1:${source.localPort}`, '--speed', '4', '--rtp', '--packets-per-datagram', '4', '--ttl', '2']);
    expect(result.stderr).to.equal('');
    expect(result.status).to.equal(0);
    const datagrams = Math.ceil(bytes.length / 188 / 4);
    expect(result.stdout).to.match(new RegExp(`^replayed .*stream\\.ts to udp://127\\.0\\.0\\.1:${source.localPort}\\?ttl=2: ${datagrams.toLocaleString('en-US')} datagrams \\(`));
    // The receiver read nothing while the CLI ran (spawnSync blocks this process); the kernel kept the datagrams.
    const deadline = Date.now() + 2000;
    while (received < bytes.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(received).to.equal(bytes.length);
    expect(source.stats()).to.include({ rtp: true, rtpLost: 0 });
  });

  it('stops cleanly on Ctrl+C while looping, still printing the summary', async () => {
    const tsx = import.meta.resolve('tsx');
    const child = spawn(process.execPath, ['--conditions=source', '--import', tsx, join(repoRoot, 'gateway/src/cli/main.ts'), 'replay', file, `udp://127.0.0.1:${source.localPort}`, '--loop'], {
      cwd: repoRoot,
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    // Wait until datagrams arrive (the CLI has started), then interrupt after a loop or so.
    const deadline = Date.now() + 10_000;
    while (received === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 700));
    child.kill('SIGINT');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).to.equal(0);
    expect(stdout).to.match(/^stopped replaying .* in \d+\.\d s \([\d.]+ Mb\/s\), \d+ loops?, max lateness [\d.]+ ms\n$/);
  });

  const usage: Array<[string, string[], RegExp]> = [
    ['a destination that is not a udp:// URL', ['udp://localhost:5000'], /'localhost' is not an IPv4 address/],
    ['a negative speed', ['udp://127.0.0.1:5000', '--speed', '-2'], /--speed must be a number >= 0/],
    ['too many packets per datagram', ['udp://127.0.0.1:5000', '--packets-per-datagram', '400'], /--packets-per-datagram must be an integer from 1 to 348/],
    ['the TTL twice', ['udp://127.0.0.1:5000?ttl=3', '--ttl', '4'], /give the TTL once/],
    ['a TTL out of range', ['udp://127.0.0.1:5000', '--ttl', '300'], /ttl must be an integer from 1 to 255/],
  ];
  for (const [what, args, message] of usage) {
    it(`exits with 2 and one line for ${what}`, () => {
      const result = runCli(['replay', file, ...args]);
      expect(result.status).to.equal(2);
      expect(result.stderr).to.match(message);
      expect(result.stderr.trim().split('\n')).to.have.length(1);
    });
  }

  it('exits with 2 for a missing file or one that is not a transport stream', () => {
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello\n'.repeat(1000));
    expect(runCli(['replay', join(dir, 'missing.ts'), 'udp://127.0.0.1:5000']).status).to.equal(2);
    const notTs = runCli(['replay', text, 'udp://127.0.0.1:5000']);
    expect(notTs.status).to.equal(2);
    expect(notTs.stderr).to.match(/no MPEG-TS packets/);
  });
});
