import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { generateTransportStream, type RecorderStatus } from '@klvscope/core';
import { seededRandom } from '../../test-support/random.js';
import { recordingFileName } from '../src/recording-file-name.js';
import { TsRecorder, type TsRecorderOptions } from '../src/recorder.js';
import { childStream, type ChildConfig } from './recorder-child-config.js';
import { demuxTotals, firstUnsyncedPacket, joinedBytes, recordedFiles } from './recorded-files.js';

const CHILD = fileURLToPath(new URL('./recorder-child.ts', import.meta.url));
const START = Date.UTC(2026, 10, 27, 3, 15, 0);

/** A 3 s stream at 4 Mb/s with KLV: PAT every 100 ms (about 50 kB apart). */
const STREAM = generateTransportStream({ durationSeconds: 3, bitrate: 4_000_000, klv: {}, seed: 7 }).bytes;

/** `bytes` cut at random places (1 to 2000 bytes per chunk), so packets are split. */
function randomChunks(bytes: Uint8Array, seed: number): Uint8Array[] {
  const random = seededRandom(seed);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(random() * 2000);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

/** Writes the chunks, letting the writer run now and then as a live feed would. */
async function feed(recorder: TsRecorder, chunks: Uint8Array[]): Promise<void> {
  for (let i = 0; i < chunks.length; i++) {
    recorder.write(chunks[i]);
    if (i % 200 === 199) await sleep(0);
  }
}

function isWholePackets(bytes: Uint8Array): boolean {
  return bytes.length % 188 === 0 && firstUnsyncedPacket(bytes) === -1;
}

describe('TS recorder', () => {
  let dir: string;
  let folderCount = 0;
  const newFolder = () => join(dir, `rec-${++folderCount}`);
  const recorderIn = (folder: string, options: Partial<TsRecorderOptions> = {}) =>
    new TsRecorder({ folder, channelName: 'ch1', missionName: () => 'RECON 7', ...options });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'klvscope-recorder-'));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  describe('file names', () => {
    it('names a file after the channel, the mission and the UTC start, keeping only [A-Za-z0-9._-]', () => {
      expect(recordingFileName({ channelName: 'ch1', missionName: 'RECON 7/α', startedAt: START, attempt: 0 })).to.equal('ch1_RECON-7-_20261127T031500Z.ts');
      expect(recordingFileName({ channelName: '../../etc', missionName: null, startedAt: START, attempt: 2 })).to.equal('etc_20261127T031500Z_2.ts');
      expect(recordingFileName({ channelName: '', missionName: '', startedAt: START, attempt: 0 })).to.equal('channel_20261127T031500Z.ts');
    });

    it('never overwrites a file: a taken name gets the next free _<n>', async () => {
      const folder = newFolder();
      await mkdir(folder);
      await writeFile(join(folder, 'ch1_RECON-7_20261127T031500Z.ts'), 'keep me');
      await writeFile(join(folder, 'ch1_RECON-7_20261127T031500Z_1.ts'), 'keep me too');
      const recorder = recorderIn(folder, { now: () => START });
      const status = await recorder.start();
      expect(status.file).to.equal(join(folder, 'ch1_RECON-7_20261127T031500Z_2.ts'));
      await recorder.stop();
      expect(readFileSync(join(folder, 'ch1_RECON-7_20261127T031500Z.ts'), 'utf8')).to.equal('keep me');
      expect(readFileSync(join(folder, 'ch1_RECON-7_20261127T031500Z_1.ts'), 'utf8')).to.equal('keep me too');
    });
  });

  describe('recording', () => {
    it('records a stream split anywhere as the same packets, PID by PID, with no continuity error', async () => {
      const folder = join(newFolder(), 'made', 'with', 'parents');
      const recorder = recorderIn(folder);
      const started = await recorder.start();
      expect(started.state).to.equal('running');
      expect(started.file).to.match(/\/ch1_RECON-7_\d{8}T\d{6}Z\.ts$/);
      await feed(recorder, randomChunks(STREAM, 1));
      const stopped = await recorder.stop();
      expect(stopped).to.deep.include({ state: 'stopped', file: null, reason: null });
      // The spec types timeStarted a date-time text: stopped, it is when the recording stopped.
      expect(Date.parse(stopped.timeStarted)).to.be.at.least(Date.parse(started.timeStarted));

      const files = recordedFiles(folder);
      expect(files).to.have.length(1);
      const recorded = readFileSync(files[0]);
      expect(Buffer.compare(recorded, STREAM)).to.equal(0);
      const sent = demuxTotals(STREAM);
      const got = demuxTotals(recorded);
      expect(got.continuityErrors).to.equal(0);
      expect(got.errors).to.deep.equal([]);
      expect([...got.packetsByPid]).to.deep.equal([...sent.packetsByPid]);
      expect(got.packetsByPid.get(0x102)).to.be.greaterThan(0); // the KLV PID is there
      expect(recorder.stats()).to.include({ files: 1, bytesWritten: STREAM.length, queuedBytes: 0, skippedBytes: 0 });
    });

    it('resynchronises on 0x47: bytes that are not packets are left out and counted', async () => {
      const folder = newFolder();
      const recorder = recorderIn(folder);
      await recorder.start();
      const part = STREAM.subarray(0, 188 * 400);
      const noise = new Uint8Array(1000).fill(0x11);
      // Noise before, between two halves (cut on a packet boundary) and after.
      recorder.write(noise.subarray(0, 37));
      recorder.write(part.subarray(0, 188 * 200));
      recorder.write(noise);
      recorder.write(part.subarray(188 * 200));
      recorder.write(noise.subarray(0, 5));
      await recorder.stop();
      const recorded = joinedBytes(recordedFiles(folder));
      expect(Buffer.compare(recorded, part)).to.equal(0);
      expect(recorder.stats().skippedBytes).to.equal(37 + 1000 + 5);
    });

    it('tells each change of state, and of file, to onStateChange', async () => {
      const folder = newFolder();
      const recorder = recorderIn(folder, { rotateBytes: 500_000 });
      const seen: RecorderStatus[] = [];
      recorder.onStateChange = (status) => {
        seen.push(status);
        throw new Error('a listener that throws changes nothing');
      };
      await recorder.start();
      await feed(recorder, randomChunks(STREAM, 2));
      await recorder.stop();
      const files = recordedFiles(folder);
      expect(files.length).to.be.greaterThan(2);
      expect(seen.map((s) => s.state)).to.deep.equal([...files.map(() => 'running'), 'stopped']);
      expect(seen.slice(0, -1).map((s) => s.file)).to.deep.equal(files);
    });
  });

  describe('rotation', () => {
    it('starts each file at a PAT once the size is reached: every file demuxes alone, and together they are the stream', async () => {
      const folder = newFolder();
      const recorder = recorderIn(folder, { rotateBytes: 300_000 });
      await recorder.start();
      await feed(recorder, randomChunks(STREAM, 3));
      await recorder.stop();
      const files = recordedFiles(folder);
      expect(files.length).to.be.within(4, Math.ceil(STREAM.length / 300_000));
      // No gap, no overlap: byte for byte the stream.
      expect(Buffer.compare(joinedBytes(files), STREAM)).to.equal(0);
      for (const [i, file] of files.entries()) {
        const bytes = readFileSync(file);
        expect(isWholePackets(bytes), file).to.be.true;
        expect(bytes[1] & 0x5f, `${file} starts with a PAT`).to.equal(0x40);
        expect(bytes[2]).to.equal(0);
        // Past the threshold by less than the PAT interval (100 ms at 4 Mb/s is 50 kB); the last file is the rest.
        if (i < files.length - 1) expect(bytes.length).to.be.within(300_000, 300_000 + 60_000);
        const totals = demuxTotals(bytes);
        expect(totals.continuityErrors, file).to.equal(0);
        expect(totals.packetsByPid.get(0x102), `${file} has KLV`).to.be.greaterThan(0);
      }
    });

    it('keeps the channel within keepBytes: its oldest files go, the newest stay whole, other files are left alone', async () => {
      const folder = newFolder();
      await mkdir(folder);
      await writeFile(join(folder, 'ch2_20261127T031500Z.ts'), Buffer.alloc(900_000));
      await writeFile(join(folder, 'notes.txt'), 'not a recording');
      const recorder = recorderIn(folder, { rotateBytes: 300_000, keepBytes: 700_000 });
      await recorder.start();
      await feed(recorder, randomChunks(STREAM, 4));
      await recorder.stop();
      const kept = recordedFiles(folder).filter((file) => file.includes('/ch1_'));
      const keptBytes = kept.reduce((sum, file) => sum + statSync(file).size, 0);
      expect(keptBytes).to.be.at.most(700_000);
      // What is left is the end of the stream, byte for byte: the oldest files went first.
      expect(kept.length).to.be.at.least(1);
      expect(Buffer.compare(joinedBytes(kept), STREAM.subarray(STREAM.length - keptBytes))).to.equal(0);
      expect(recorder.stats().deletedFiles).to.equal(recorder.stats().files - kept.length);
      expect(recorder.stats().deletedFiles).to.be.at.least(2);
      expect(statSync(join(folder, 'ch2_20261127T031500Z.ts')).size).to.equal(900_000);
      expect(readFileSync(join(folder, 'notes.txt'), 'utf8')).to.equal('not a recording');
    });

    it('applies a smaller budget at start to the files already there, never to the file it writes', async () => {
      const folder = newFolder();
      const first = recorderIn(folder, { rotateBytes: 300_000 });
      await first.start();
      await feed(first, randomChunks(STREAM, 5));
      await first.stop();
      expect(recordedFiles(folder).length).to.be.at.least(4);
      const second = recorderIn(folder, { keepBytes: 1 });
      const status = await second.start();
      await sleep(200);
      // Every older file is gone; the new, still empty one is written on.
      expect(recordedFiles(folder)).to.deep.equal([status.file]);
      second.write(STREAM.subarray(0, 188 * 100));
      await second.stop();
      expect(statSync(status.file as string).size).to.equal(188 * 100);
    });

    it('cuts at twice the size when no PAT comes', async () => {
      const folder = newFolder();
      const recorder = recorderIn(folder, { rotateBytes: 100 * 188 });
      await recorder.start();
      // Packets of PID 0x100 only: never a PAT.
      const packets = new Uint8Array(1000 * 188);
      for (let i = 0; i < 1000; i++) packets.set([0x47, 0x01, 0x00, 0x10 | (i & 15)], i * 188);
      await feed(recorder, randomChunks(packets, 4));
      await recorder.stop();
      const sizes = recordedFiles(folder).map((file) => statSync(file).size);
      expect(sizes).to.deep.equal([200, 200, 200, 200, 200].map((n) => n * 188));
    });

    it('rotates by duration, on the clock given, at the first PAT after it', async () => {
      const folder = newFolder();
      let now = START;
      const recorder = recorderIn(folder, { rotateSeconds: 60, now: () => now });
      await recorder.start();
      // Time passes 20 s per 100 kB written: each file reaches 60 s after 300 kB.
      const chunks = randomChunks(STREAM, 5);
      let written = 0;
      for (const chunk of chunks) {
        recorder.write(chunk);
        written += chunk.length;
        now = START + Math.floor(written / 100_000) * 20_000;
      }
      await recorder.stop();
      const files = recordedFiles(folder);
      expect(Buffer.compare(joinedBytes(files), STREAM)).to.equal(0);
      expect(files.map((f) => f.slice(folder.length + 1))).to.deep.equal([
        'ch1_RECON-7_20261127T031500Z.ts',
        'ch1_RECON-7_20261127T031600Z.ts',
        'ch1_RECON-7_20261127T031700Z.ts',
        'ch1_RECON-7_20261127T031800Z.ts',
        'ch1_RECON-7_20261127T031900Z.ts',
      ]);
      for (const file of files.slice(1)) expect(readFileSync(file)[1] & 0x5f).to.equal(0x40);
    });

    it('reads the mission name at each file start', async () => {
      const folder = newFolder();
      let mission: string | null = 'first';
      let now = START;
      const recorder = recorderIn(folder, { rotateBytes: 1_000_000, missionName: () => mission, now: () => now });
      await recorder.start();
      recorder.write(STREAM.subarray(0, 900_000));
      mission = null;
      now += 1000;
      recorder.write(STREAM.subarray(900_000));
      await recorder.stop();
      const names = recordedFiles(folder).map((f) => f.slice(folder.length + 1));
      expect(names).to.deep.equal(['ch1_first_20261127T031500Z.ts', 'ch1_20261127T031501Z.ts']);
    });
  });

  describe('failures', () => {
    it('fails with a readable reason when the folder cannot be made, and starts once it can', async () => {
      const blocker = join(dir, 'a-regular-file');
      await writeFile(blocker, '');
      const folder = join(blocker, 'sub');
      const recorder = recorderIn(folder);
      const failed = await recorder.start();
      expect(failed.state).to.equal('failed');
      expect(failed.reason).to.equal(`cannot create the folder ${folder}: not a directory (ENOTDIR)`);
      expect(() => recorder.write(STREAM.subarray(0, 1880))).not.to.throw();
      expect(recorder.stats().lostBytes).to.equal(1880);
      await rm(blocker);
      const running = await recorder.start();
      expect(running.state).to.equal('running');
      await recorder.stop();
    });

    it('fails when its folder is removed while recording, keeps taking bytes without throwing, and starts again', async () => {
      const folder = newFolder();
      const recorder = recorderIn(folder);
      const states: string[] = [];
      recorder.onStateChange = (status) => states.push(status.state);
      await recorder.start();
      recorder.write(STREAM.subarray(0, 188 * 1000));
      await rm(folder, { recursive: true });
      // The open file is checked once a second: write until the recorder notices.
      const deadline = Date.now() + 5000;
      for (let at = 188 * 1000; recorder.status().state === 'running' && Date.now() < deadline; at = (at + 1316) % (STREAM.length - 1316)) {
        recorder.write(STREAM.subarray(at, at + 1316));
        await sleep(5);
      }
      const failed = recorder.status();
      expect(failed.state).to.equal('failed');
      expect(failed.reason).to.match(/^\/.*\/ch1_RECON-7_\d{8}T\d{6}Z\.ts was deleted while being recorded \(was its folder removed\?\)$/);
      expect(failed.timeStarted).to.be.a('string');
      expect(() => recorder.write(STREAM.subarray(0, 1316))).not.to.throw();
      const again = await recorder.start();
      expect(again.state).to.equal('running');
      expect(existsSync(folder)).to.be.true;
      await recorder.stop();
      expect(states).to.deep.equal(['running', 'failed', 'running', 'stopped']);
    });

    it('fails rather than grow when the disk falls behind by more than the bound', async () => {
      const folder = newFolder();
      const recorder = recorderIn(folder, { maxQueuedBytes: 200_000 });
      const { file } = await recorder.start();
      // All at once, in one turn of the event loop: the writer cannot keep up.
      for (const chunk of randomChunks(STREAM.subarray(0, 1_000_000), 6)) recorder.write(chunk);
      const status = recorder.status();
      expect(status.state).to.equal('failed');
      expect(status.reason).to.equal(`the disk fell behind: more than 200000 bytes were waiting to be written to ${file}`);
      expect(recorder.stats().queuedBytes).to.equal(0);
      await recorder.stop();
      // What was written is whole packets.
      expect(isWholePackets(joinedBytes(recordedFiles(folder)))).to.be.true;
    });

    it('fails with "no space left on device (ENOSPC)" on a full disk; the file keeps whole packets', async function () {
      this.timeout(60_000);
      const mount = join(dir, 'tiny-disk');
      const copyTo = join(dir, 'tiny-disk-copy');
      await mkdir(mount);
      const config: ChildConfig = { folder: join(mount, 'rec'), rotateBytes: 400_000, stream: { durationSeconds: 8, bitrate: 4_000_000, seed: 11 }, copyTo };
      // A 1 MiB tmpfs in a private mount namespace: only the child sees it.
      const script = 'mount -t tmpfs -o size=1m tmpfs "$1" && shift && exec "$@"';
      const result = spawnSync('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', script, 'sh', mount, ...childCommand(config)], { encoding: 'utf8' });
      if (result.error || /unshare: |mount: /.test(result.stderr)) {
        console.log(`      skipped: cannot mount a tmpfs in a private mount namespace (${result.error?.message ?? result.stderr.trim()})`);
        this.skip();
      }
      expect(result.status, result.stderr).to.equal(0);
      const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { event: string; status?: RecorderStatus; writesAfterFailure?: number });
      const failed = lines.find((line) => line.status?.state === 'failed')?.status;
      expect(failed?.reason).to.match(/^cannot (write|create) .*\/rec\/child_kill-test_\d{8}T\d{6}Z(_\d+)?\.ts: no space left on device \(ENOSPC\)(: the disk holding \S+\/rec is full; .*)?$/);
      if (failed?.reason?.startsWith('cannot write')) expect(failed.reason).to.include('the disk holding');
      const done = lines.at(-1);
      expect(done?.event).to.equal('done');
      expect(done?.writesAfterFailure).to.be.greaterThan(100);
      const files = recordedFiles(copyTo);
      const recorded = joinedBytes(files);
      expect(recorded.length).to.be.within(900_000, 1024 * 1024);
      for (const file of files) expect(isWholePackets(readFileSync(file)), file).to.be.true;
      expect(Buffer.compare(recorded, childStream(config).subarray(0, recorded.length))).to.equal(0);
    });
  });

  describe('killed', () => {
    it('leaves whole packets, a prefix of what was sent, when SIGKILLed mid-recording; a partial packet the kernel left is cut off at the next start', async function () {
      this.timeout(120_000);
      const runs = 6;
      let partialTails = 0;
      for (let run = 0; run < runs; run++) {
        const folder = join(newFolder(), 'kill');
        const config: ChildConfig = { folder, rotateBytes: 2_000_000, stream: { durationSeconds: 20, bitrate: 8_000_000, seed: 100 + run } };
        const [command, ...args] = childCommand(config);
        const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
        await startedLine(child);
        // Kill at a different moment each run, once a few MB are on disk.
        const killAt = 3_000_000 + run * 1_700_000;
        while (folderBytes(folder) < killAt && child.exitCode === null) await sleep(1);
        child.kill('SIGKILL');
        await new Promise((resolve) => child.once('exit', resolve));
        expect(child.signalCode, `run ${run}: killed while recording`).to.equal('SIGKILL');
        const files = recordedFiles(folder);
        const recorded = joinedBytes(files);
        expect(files.length, `run ${run}`).to.be.greaterThan(1);
        for (const [i, file] of files.entries()) {
          const bytes = readFileSync(file);
          // Whole packets, but for one case: the kernel may cut the write under way at a page boundary
          // (the kill is checked between pages), leaving the last file a partial packet at its end.
          const cutByKernel = i === files.length - 1 && bytes.length % 4096 === 0;
          if (bytes.length % 188 !== 0) partialTails++;
          expect(firstUnsyncedPacket(bytes), `run ${run}: ${file}`).to.equal(-1);
          expect(bytes.length % 188 === 0 || cutByKernel, `run ${run}: ${file} is ${bytes.length} bytes`).to.be.true;
        }
        const sent = childStream(config);
        expect(recorded.length).to.be.lessThan(sent.length);
        expect(Buffer.compare(recorded, sent.subarray(0, recorded.length)), `run ${run}`).to.equal(0);
        const totals = demuxTotals(recorded);
        expect(totals.continuityErrors).to.equal(0);
        expect(totals.errors.map((e) => e.type)).to.deep.equal(recorded.length % 188 === 0 ? [] : ['truncated-packet']);
        // The next recorder on the folder (its clock past the quiet time) cuts a partial packet off: every file whole packets.
        const next = new TsRecorder({ folder, channelName: 'next', now: () => Date.now() + 10_000 });
        await next.start();
        await next.stop();
        expect(next.stats().mendedFiles, `run ${run}`).to.equal(recorded.length % 188 === 0 ? 0 : 1);
        for (const file of recordedFiles(folder)) expect(readFileSync(file).length % 188, `run ${run}: ${file} after the next start`).to.equal(0);
      }
      console.log(`      ${partialTails} of ${runs} kills caught a write under way (a partial packet at the end of the last file)`);
    });
  });
});

function folderBytes(folder: string): number {
  if (!existsSync(folder)) return 0;
  return readdirSync(folder).reduce((n, name) => n + statSync(join(folder, name)).size, 0);
}

function childCommand(config: ChildConfig): string[] {
  return [process.execPath, '--conditions=source', '--import', 'tsx', CHILD, JSON.stringify(config)];
}

/** Resolves once the child printed {"event":"started"}. */
function startedLine(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (data: Buffer) => {
      text += data.toString();
      if (text.includes('"event":"started"')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the recorder child exited (${code}) before starting`)));
  });
}
