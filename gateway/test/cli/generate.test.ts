import { expect } from 'chai';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../../test-support/fixtures.js';
import { runCli } from './run-cli.js';

describe('klvscope generate', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'klvscope-generate-'));

  it('writes a stream whose injected faults inspect finds, with the ground truth as JSON', () => {
    const out = join(dir, 'faults.ts');
    const truth = join(dir, 'faults.json');
    const generated = runCli(['generate', out, '--duration', '4', '--bitrate', '2000000', '--fault', 'tei@1', '--fault', 'drop-packet@2.5', '--truth', truth]);
    expect(generated.status).to.equal(0);
    expect(generated.stdout).to.match(/fault tei at 1 s: PID 0x0100, packet \d+/);
    const faults = (JSON.parse(readFileSync(truth, 'utf8')) as { faults: Array<{ kind: string; packetIndex: number }> }).faults;
    expect(faults.map((f) => f.kind)).to.deep.equal(['tei', 'drop-packet']);
    const inventory = JSON.parse(runCli(['inspect', '--json', out]).stdout) as { errorCounts: Record<string, number>; durationSeconds: number };
    expect(inventory.errorCounts).to.deep.equal({ 'transport-error': 1, 'continuity-error': 1 });
    expect(inventory.durationSeconds).to.be.closeTo(4, 0.05);
  });

  it('carries the demo clip\'s H.264 pictures with --picture, so a browser plays the video', () => {
    const out = join(dir, 'picture.ts');
    expect(runCli(['generate', out, '--duration', '1', '--klv', 'sync', '--picture']).status).to.equal(0);
    const clip = readFileSync(join(repoRoot, 'gateway', 'assets', 'demo-clip.h264'));
    // The clip's first access unit (its SPS, PPS and first slice start) is in the stream's first video PES.
    expect(readFileSync(out).includes(clip.subarray(0, 64))).to.equal(true);
  });

  it('creates the folder of the output file', () => {
    const out = join(dir, 'new', 'folder', 'demo.ts');
    expect(runCli(['generate', out, '--duration', '1']).status).to.equal(0);
    expect(existsSync(out)).to.be.true;
  });

  it('writes 192-byte packets when asked', () => {
    const out = join(dir, 'm2ts.ts');
    expect(runCli(['generate', out, '--duration', '1', '--packet-size', '192']).status).to.equal(0);
    const inventory = JSON.parse(runCli(['inspect', '--json', out]).stdout) as { packetSize: number; errorCounts: object };
    expect(inventory).to.deep.include({ packetSize: 192, errorCounts: {} });
  });

  it('exits with 2 and writes nothing for an unknown fault or a bad packet size', () => {
    const out = join(dir, 'bad.ts');
    const bad = runCli(['generate', out, '--fault', 'nonsense@1']);
    expect(bad.status).to.equal(2);
    expect(bad.stderr).to.match(/unknown fault kind 'nonsense'/);
    expect(runCli(['generate', out, '--packet-size', '100']).status).to.equal(2);
    expect(runCli(['generate', out, '--duration', '-3']).status).to.equal(2);
    expect(existsSync(out)).to.be.false;
  });
});
