/**
 * Issue 35, a full disk through the services: run by
 * services-full-disk.test.ts on a tmpfs of its own (tiny-filesystem.ts),
 * FOLDER as first argument, then the path: `ingest` (inspect --store),
 * `lock` (inspect --store with no room for the data folder's lock),
 * `export` (klvscope export --out), `recording` (the streaming module's
 * recorder) or `relay` (its database's saves). Each does the work once
 * with space, again with the disk full (a ballast file), looks at what is
 * on disk, deletes the ballast and does it again. Prints one JSON line of
 * what happened, for the test to judge.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTransportStream } from '@klvscope/core';
import { fillDisk } from '../../../test-support/disk-ballast.js';
import { until } from '../../../test-support/until.js';
import { startRelayServer } from '../../src/relay/start-relay-server.js';
import { startStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { runCli, type CliResult } from '../cli/run-cli.js';

const [folder, path] = process.argv.slice(2);
const dataDir = join(folder, 'data');
mkdirSync(dataDir);
// The inputs live off the tiny disk: only what the services write fills it.
const inputs = mkdtempSync(join(tmpdir(), 'klvscope-full-disk-inputs-'));

const cli = (args: string[]): { status: number | null; stderr: string } => {
  const result: CliResult = runCli(args);
  return { status: result.status, stderr: result.stderr.trim().slice(0, 1_000) };
};
/** Files left half-written: temporaries of the atomic writes and exports. */
const temporaries = (): string[] => listed(folder).filter((name) => name.includes('.tmp-'));
function listed(at: string): string[] {
  return readdirSync(at, { recursive: true, encoding: 'utf8' });
}
const digest = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
const tsFile = (seed: number): string => {
  const file = join(inputs, `flight-${seed}.ts`);
  writeFileSync(file, generateTransportStream({ durationSeconds: 3, bitrate: 2_000_000, seed, klv: { carriage: 'sync' } }).bytes);
  return file;
};
const runsOf = (file: string): Array<{ id: string; status: string }> => {
  const shown = runCli(['archive', 'show', file, '--json', '--store', dataDir]);
  return shown.status === 0 ? (JSON.parse(shown.stdout) as { ingestRuns: Array<{ id: string; status: string }> }).ingestRuns.map(({ id, status }) => ({ id, status })) : [];
};

function ingest(): unknown {
  const first = tsFile(31);
  const second = tsFile(32);
  const withSpace = cli(['inspect', '--store', dataDir, '--fail-on', 'never', first]);
  const catalogBefore = digest(join(dataDir, 'catalog.sqlite'));
  // Room for the lock and a little more: the ingest fails in its own saves.
  const ballast = fillDisk(folder, 24 * 1024);
  const full = cli(['inspect', '--store', dataDir, '--fail-on', 'never', second]);
  const onFullDisk = { catalogUnchanged: digest(join(dataDir, 'catalog.sqlite')) === catalogBefore, temporaries: temporaries() };
  ballast.remove();
  const firstRuns = runsOf(first);
  const again = cli(['inspect', '--store', dataDir, '--fail-on', 'never', second]);
  return { withSpace, full, onFullDisk, firstRuns, again, secondRuns: runsOf(second) };
}

/** A disk too full even for the data folder's lock: an empty lock left behind refused every later process. */
function lock(): unknown {
  const file = tsFile(34);
  const ballast = fillDisk(folder);
  const full = cli(['inspect', '--store', dataDir, '--fail-on', 'never', file]);
  const lockLeft = readdirSync(dataDir).includes('klvscope.lock');
  ballast.remove();
  const again = cli(['inspect', '--store', dataDir, '--fail-on', 'never', file]);
  return { full, lockLeft, again, runs: runsOf(file) };
}

function exportScenario(): unknown {
  const file = tsFile(33);
  const inspected = cli(['inspect', '--store', dataDir, '--fail-on', 'never', file]);
  const runId = runsOf(file)[0]?.id ?? '(none)';
  const out = join(folder, 'fields.ndjson');
  const exportCommand = ['export', runId, 'klv/fields', '--format', 'ndjson', '--out', out, '--store', dataDir];
  const withSpace = cli(exportCommand);
  const before = { digest: digest(out), bytes: statSync(out).size };
  // A second export to another name on the full disk, and the same name again.
  const ballast = fillDisk(folder, 8 * 1024);
  const fullOther = cli([...exportCommand.slice(0, 6), join(folder, 'fields-2.ndjson'), ...exportCommand.slice(7)]);
  const fullSame = cli(exportCommand);
  const onFullDisk = { sameFileUnchanged: digest(out) === before.digest, files: readdirSync(folder).sort(), temporaries: temporaries() };
  ballast.remove();
  const again = cli([...exportCommand.slice(0, 6), join(folder, 'fields-2.ndjson'), ...exportCommand.slice(7)]);
  const againEqual = again.status === 0 && digest(join(folder, 'fields-2.ndjson')) === before.digest;
  return { inspected, withSpace, before, fullOther, fullSame, onFullDisk, again, againEqual };
}

async function recording(): Promise<unknown> {
  const streaming = await startStreamingServer({
    dataDir,
    port: 0,
    env: {},
    onExit: () => undefined,
    config: { user: 'disk', password: 'disk-password', recordingMaxBytes: 200_000 },
  });
  const auth = `Basic ${Buffer.from('disk:disk-password').toString('base64')}`;
  const command = async (command: string): Promise<{ state: string }> =>
    (await (await fetch(`${streaming.url}/command`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ service: 'recorder', command }) })).json()) as { state: string };
  const state = async (): Promise<{ state: string; file: string | null; reason: string | null }> => (await (await fetch(`${streaming.url}/recorderState`)).json()) as { state: string; file: string | null; reason: string | null };
  const recordings = streaming.config.recordingsDir;
  const files = (): Array<{ name: string; bytes: number }> =>
    readdirSync(recordings)
      .filter((name) => name.endsWith('.ts'))
      .sort()
      .map((name) => ({ name, bytes: statSync(join(recordings, name)).size }));
  try {
    const started = await command('start');
    // Two files closed by rotation before the disk fills: the previous files whose bytes must stay.
    await until('two rotations', 60_000, () => files().length >= 3);
    const closedBefore = files().slice(0, 2).map(({ name }) => ({ name, digest: digest(join(recordings, name)) }));
    const ballast = fillDisk(folder);
    await until('the recorder failed', 30_000, async () => (await state()).state === 'failed');
    const failed = await state();
    const info = (await (await fetch(`${streaming.url}/info`)).json()) as Record<string, unknown>;
    const onFullDisk = {
      files: files(),
      closedUnchanged: closedBefore.every(({ name, digest: before }) => digest(join(recordings, name)) === before),
      wholePackets: files().every(({ bytes }) => bytes % 188 === 0),
      temporaries: temporaries(),
      moduleAnswers: typeof info.version === 'string',
    };
    ballast.remove();
    const countBefore = files().length;
    const restarted = await command('start');
    await until('a new file with packets', 30_000, () => files().length > countBefore && files().at(-1)!.bytes > 0);
    const stopped = await command('stop');
    const after = files();
    return { started: started.state, failed, onFullDisk, restarted: restarted.state, stopped: stopped.state, newFile: after.at(-1), wholePacketsAfter: after.every(({ bytes }) => bytes % 188 === 0) };
  } finally {
    await streaming.close();
  }
}

const platforms = async (url: string): Promise<Array<{ name: string }>> => (await (await fetch(`${url}/api/platforms`)).json()) as Array<{ name: string }>;

async function relayScenario(): Promise<unknown> {
  const key = 'full-disk-key-0123456789abcdef';
  const relay = await startRelayServer({ dataDir, port: 0, env: {}, apiKey: key });
  const post = async (name: string): Promise<{ status: number; body: unknown }> => {
    const response = await fetch(`${relay.url}/api/platforms`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ name, description: '', channels: [] }) });
    return { status: response.status, body: await response.json() };
  };
  const databaseFile = join(dataDir, 'relay', 'relay.sqlite');
  try {
    const withSpace = await post('before the disk filled');
    const before = digest(databaseFile);
    const ballast = fillDisk(folder);
    const platformsBefore = await platforms(relay.url);
    const full = await post('on the full disk');
    const health = (await fetch(`${relay.url}/api/health`)).status;
    const onFullDisk = { databaseUnchanged: digest(databaseFile) === before, temporaries: temporaries(), health, platformsUnchanged: JSON.stringify(await platforms(relay.url)) === JSON.stringify(platformsBefore) };
    ballast.remove();
    // The client repeats its refused request once there is space.
    const again = await post('on the full disk');
    const namesServed = (await platforms(relay.url)).map(({ name }) => name);
    await relay.close();
    // What a relay started later finds on disk.
    const reopened = await startRelayServer({ dataDir, port: 0, env: {}, apiKey: key });
    const names = (await platforms(reopened.url)).map(({ name }) => name);
    await reopened.close();
    return { withSpace: withSpace.status, full, onFullDisk, again: again.status, namesServed, names };
  } finally {
    await relay.close();
  }
}

const scenarios: Record<string, () => unknown> = { ingest, lock, export: exportScenario, recording, relay: relayScenario };
try {
  const outcome = await scenarios[path]();
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
} finally {
  rmSync(inputs, { recursive: true, force: true });
}
process.exit(0);
