/**
 * The `klvscope` command line. Exit codes: 0 done, 1 a violation of the
 * --fail-on severity, 2 bad usage, an unreadable input or a bad plugin or
 * rule set, 74 a full disk (ERR_STORE_DISK_FULL: nothing half-written; run
 * it again once there is space; sysexits' EX_IOERR, as 70 is EX_SOFTWARE).
 */
import { BUILT_IN_FAULT_KIND_NAMES } from '@klvscope/core';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { runGenerate, type GenerateCliOptions } from './generate-command.js';
import { runInspect, type InspectOptions } from './inspect-command.js';
import { runArchiveList, runArchiveRemove, runArchiveShow, type ArchiveOptions } from './archive-command.js';
import { runKlv } from './klv-command.js';
import { runExport, type ExportOptions } from './export-command.js';
import { runReplay, type ReplayCliOptions } from './replay-command.js';
import { registerLicenseCommand } from './license-command.js';
import type { ServeOptions } from './serve-command.js';
import type { StartOptions } from './start-command.js';
import type { StreamOptions } from './stream-command.js';
import type { RelayOptions } from './relay-command.js';
import type { WatchOptions } from './watch-command.js';
import type { WorkerOptions } from './worker-command.js';
import type { ProbeOptions } from './probe-command.js';
import type { EnqueueOptions } from './enqueue-command.js';
import { APP_VERSION } from '../app-version.js';
import type { RuleOptions } from './cli-checks.js';
import { runRulesCheck, runRulesPrint } from './rules-command.js';
import { UsageError } from './usage-error.js';

function positiveNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive number, got '${value}'`);
    return n;
  };
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function buildProgram(): Command {
  const program = new Command('klvscope')
    .description('Inspect MPEG-TS recordings and live feeds carrying KLV metadata (STANAG 4609, MISB ST 0601).')
    .version(APP_VERSION)
    .exitOverride()
    .configureOutput({ outputError: () => undefined });

  program
    .command('inspect')
    .description('print the inventory of a transport stream, its KLV, and the verdict of every check')
    .argument('<file>', 'MPEG-TS file (188, 192 or 204-byte packets)')
    .option('--json', 'print the whole report as JSON')
    .option('--check <id>', "print this check's points instead of the report")
    .option('--format <format>', 'points format with --check: text, json or csv', 'text')
    .option('--profile <name>', 'rule profile: stanag4609 (default) or tr101290')
    .option('--rules <file>', 'a JSON rule set overriding the profile')
    .option('--config <file>', `configuration file (default ./klvscope.config.json when present)`)
    .option('--fail-on <severity>', 'exit with 1 on a violation of this severity or worse: error, warn or never', 'error')
    .option('--store [dir]', 'keep the stages in a data folder and reuse them (default folder: $KLVSCOPE_DATA_DIR or ./data)')
    .option('--catalog <url>', "with --store: reuse a fleet's inspection of the file, and publish this one to it (docs/fleet.md)")
    .option('--threads <n>', 'threads reading the file: N - 1 worker threads find the packets the demuxer may count without reading them (files of 64 MiB or more; default 1; docs/parallel-inspection.md)')
    .action(async (file: string, options: InspectOptions) => {
      process.exitCode = await runInspect(file, options);
    });

  program
    .command('serve')
    .description('run the inspection service (REST under /api/v1, loopback only) over a data folder, until Ctrl+C or SIGTERM')
    .option('--data-dir <dir>', 'data folder (default $KLVSCOPE_DATA_DIR or ./data)')
    .option('--port <n>', 'port (default $KLVSCOPE_PORT or 38180; 0 picks a free one)')
    .option('--host <host>', 'loopback address: 127.0.0.1 (default, with ::1 where available), another 127.x.x.x, ::1 or localhost')
    .option('--config <file>', 'configuration file naming extra check modules (default ./klvscope.config.json when present)')
    .option('--catalog <url>', "a fleet's PostgreSQL, postgres://user@host:5432/database: inspections run on its workers (default $KLVSCOPE_CATALOG_URL; docs/fleet.md)")
    .option('--worker', 'with --catalog: run a worker in this process too')
    .option('--tiles <path-or-url>', 'map imagery without the internet: a tile folder laid out Z/X/Y.png (.jpg, .webp) or an .mbtiles file, served at /tiles/{z}/{x}/{y}; or a tile URL https://.../{z}/{x}/{y}.png (default: coastlines only; docs/dashboard.md "Map tiles")')
    .action(async (options: ServeOptions) => {
      // Loaded on demand: the server's modules cost the other commands nothing at start-up.
      const { runServe } = await import('./serve-command.js');
      await runServe(options);
    });

  program
    .command('stream')
    .description('run the streaming module: the source to browser viewers over WebSocket, /info, /recorderState, /command, and the recorder (docs/streaming.md)')
    .option('--source <url>', 'udp://GROUP:PORT, udp://SOURCE@GROUP:PORT, udp://HOST:PORT, file:///path.ts (looped) or serial:...; default: the built-in demo')
    .option('--capture <device>', 'a video capture device read through ffmpeg, e.g. /dev/video0 (instead of --source)')
    .option('--capture-format <format>', "ffmpeg's input format of --capture: v4l2 (default), or lavfi with a filter graph as the device")
    .option('--port <n>', `port (default $KLVSCOPE_STREAM_PORT or 4000; 0 picks a free one)`)
    .option('--host <host>', 'address to listen on (default 127.0.0.1; another address makes the viewer reachable from the network)')
    .option('--data-dir <dir>', 'data folder: credentials, recordings (default $KLVSCOPE_DATA_DIR or ./data)')
    .option('--channel <name>', 'channel name (default klvscope)')
    .option('--mission <name>', "mission name (default: the KLV's Mission ID)")
    .option('--max-viewers <n>', 'viewers at most (default 16)')
    .option('--no-pass-through', 'transcode the video with ffmpeg even when the browser could play it')
    .option('--video-bitrate <bits>', 'bitrate of transcoded video (default 2000000)')
    .option('--video-resolution <WxH>', 'resolution of transcoded video (default: the source\'s)')
    .option('--recordings <dir>', 'recordings folder (default DATA/recordings)')
    .option('--no-recorder', 'disable the recorder')
    .option('--recordings-keep-gb <n>', "keep at most this many GB of the channel's recordings: past it the oldest files are deleted (default: all kept)")
    .option('--tiles <path-or-url>', 'map imagery without the internet: a tile folder laid out Z/X/Y.png (.jpg, .webp) or an .mbtiles file, served at /tiles/{z}/{x}/{y}; or a tile URL https://.../{z}/{x}/{y}.png (default: coastlines only; docs/streaming.md "Map tiles")')
    .option('--map-tiles <url>', 'the older spelling of --tiles URL')
    .action(async (options: StreamOptions) => {
      const { runStream } = await import('./stream-command.js');
      await runStream(options);
    });

  program
    .command('relay')
    .description('run the channel relay: platforms and channels that relay UDP, bitrates, stream detection, REST under /api and the docs page /api/docs/ (docs/relay.md)')
    .option('--port <n>', 'port (default $KLVSCOPE_RELAY_PORT or 5173; 0 picks a free one)')
    .option('--host <host>', 'address to listen on (default 127.0.0.1; another address makes the relay reachable from the network, and every read then needs the key)')
    .option('--data-dir <dir>', 'data folder: the relay database, the API key (default $KLVSCOPE_DATA_DIR or ./data)')
    .option('--log-max-messages <n>', 'log messages kept at most (default 10000)')
    .option('--log-max-age-days <n>', 'log messages older than this are deleted (default 30)')
    .action(async (options: RelayOptions) => {
      const { runRelay } = await import('./relay-command.js');
      await runRelay(options);
    });

  program
    .command('start')
    .description('run every service on loopback over one data folder: the inspection service, the streaming module (on the built-in demo unless --source) and the channel relay')
    .option('--data-dir <dir>', 'data folder (default $KLVSCOPE_DATA_DIR or ./data)')
    .option('--port <n>', 'inspection service port (default $KLVSCOPE_PORT or 38180)')
    .option('--stream-port <n>', 'streaming module port (default $KLVSCOPE_STREAM_PORT or 4000)')
    .option('--relay-port <n>', 'channel relay port (default $KLVSCOPE_RELAY_PORT or 5173)')
    .option('--source <url>', "the streaming module's source (default: the built-in demo)")
    .option('--recordings-keep-gb <n>', "keep at most this many GB of the streaming module's recordings: past it the oldest files are deleted (default: all kept)")
    .option('--config <file>', 'configuration file naming extra check modules (default ./klvscope.config.json when present)')
    .option('--catalog <url>', "a fleet's PostgreSQL: the inspection service's inspections run on its workers (default $KLVSCOPE_CATALOG_URL; docs/fleet.md)")
    .option('--tiles <path-or-url>', 'map imagery without the internet: a tile folder laid out Z/X/Y.png (.jpg, .webp) or an .mbtiles file, for the dashboard and the viewer, served at /tiles/{z}/{x}/{y}; or a tile URL https://.../{z}/{x}/{y}.png (default: coastlines only; docs/dashboard.md "Map tiles")')
    .action(async (options: StartOptions) => {
      const { runStart } = await import('./start-command.js');
      await runStart(options);
    });

  const rules = program.command('rules').description('the validation rule set');
  rules
    .command('print')
    .description('print the full effective rule set, each value with its source')
    .option('--profile <name>', 'rule profile: stanag4609 (default) or tr101290')
    .option('--rules <file>', 'a JSON rule set overriding the profile')
    .option('--config <file>', 'configuration file (default ./klvscope.config.json when present)')
    .option('--json', 'print the rule set as JSON')
    .action(async (options: RuleOptions & { json?: boolean }) => runRulesPrint(options));
  rules
    .command('check')
    .description('validate a JSON rule set file against the loaded checks')
    .argument('<file>', 'rule set file')
    .option('--config <file>', 'configuration file (default ./klvscope.config.json when present)')
    .action(async (file: string, options: RuleOptions) => runRulesCheck(file, options));

  const archive = program.command('archive').description('the files analysed into a data folder (see inspect --store)');
  archive
    .command('ls')
    .description('list the archived files: hash, size, last update, cached stages, path')
    .option('--store <dir>', 'data folder (default $KLVSCOPE_DATA_DIR or ./data)')
    .option('--catalog <url>', "a fleet's PostgreSQL instead of a data folder (default $KLVSCOPE_CATALOG_URL)")
    .option('--json', 'print JSON')
    .action(async (options: ArchiveOptions) => runArchiveList(options));
  archive
    .command('show')
    .description('one archived file with its ingest runs')
    .argument('<hash-or-path>', 'file hash (or a unique prefix) or the path of the file')
    .option('--store <dir>', 'data folder (default $KLVSCOPE_DATA_DIR or ./data)')
    .option('--catalog <url>', "a fleet's PostgreSQL instead of a data folder (default $KLVSCOPE_CATALOG_URL)")
    .option('--json', 'print JSON')
    .action(async (hashOrPath: string, options: ArchiveOptions) => runArchiveShow(hashOrPath, options));
  archive
    .command('rm')
    .description('delete archived files: their cached stages, ingest runs and run databases')
    .argument('<hash-or-path...>', 'file hashes (or unique prefixes) or paths')
    .option('--store <dir>', 'data folder (default $KLVSCOPE_DATA_DIR or ./data)')
    .option('--catalog <url>', "a fleet's PostgreSQL instead of a data folder (default $KLVSCOPE_CATALOG_URL)")
    .action(async (hashes: string[], options: ArchiveOptions) => runArchiveRemove(hashes, options));

  program
    .command('export')
    .description('write a raw dataset of a stored ingest run as Arrow, Parquet, NDJSON or CSV, or its flight (klv/track) as GeoJSON, KML or GPX')
    .argument('<run>', 'ingest run id (klvscope archive show lists them)')
    .argument('<dataset>', 'mpegts/pid-stats, mpegts/pcr-values, ..., klv/fields, or klv/track')
    .requiredOption('--format <format>', 'arrow, parquet, ndjson or csv (a dataset); geojson, kml or gpx (klv/track)')
    .requiredOption('--out <file>', "the file to write ('-' for stdout)")
    .option('--store <dir>', 'data folder (default $KLVSCOPE_DATA_DIR or ./data)')
    .action(async (run: string, dataset: string, options: ExportOptions) => runExport(run, dataset, options));

  program
    .command('klv')
    .description('print every KLV packet as NDJSON: decoded items by name with units (a TS file or a raw KLV stream)')
    .argument('<file>', 'MPEG-TS file, or a raw KLV byte stream (.klv.bin)')
    .option('--raw', 'add the hex bytes of each packet and item')
    .action(async (file: string, options: { raw?: boolean }) => runKlv(file, options));

  program
    .command('generate')
    .description('write a synthetic STANAG 4609 transport stream, optionally with injected faults')
    .argument('<out>', 'output .ts file')
    .option('--duration <seconds>', 'duration in seconds', positiveNumber('--duration'), 10)
    .option('--bitrate <bits>', 'total mux bitrate in bits per second', positiveNumber('--bitrate'), 4_000_000)
    .option('--packet-size <bytes>', 'packet size: 188, 192 or 204', (v) => Number(v), 188)
    .option('--audio', 'add an audio PID')
    .option('--seed <n>', 'random seed', (v) => Number(v), 1)
    .option('--fault <kind@seconds>', 'inject a fault, e.g. pcr-gap@3.5 (repeatable); kinds: ' + BUILT_IN_FAULT_KIND_NAMES.join(', '), collect, [])
    .option('--truth <file>', 'write the ground truth of the injected faults as JSON')
    .option('--klv <carriage>', 'add an ST 0601 KLV stream along a flight path: sync (MISB ST 1402 AU cells) or async')
    .option('--klv-rate <hz>', 'KLV packets per second', positiveNumber('--klv-rate'), 30)
    .option('--klv-pts', 'give asynchronous KLV PES a PTS')
    .option('--picture', 'video of real H.264 pictures (the demo clip) that a browser plays, instead of units that carry none')
    .action(async (out: string, options: GenerateCliOptions) => runGenerate(out, options));

  program
    .command('watch')
    .description('print the findings of the live session as they arrive (the live channel of klvscope serve), until Ctrl+C')
    .option('--url <url>', 'the live channel (default ws://127.0.0.1:PORT/api/v1/live)')
    .option('--port <n>', 'port of the inspection service (default $KLVSCOPE_PORT or 38180)')
    .option('--api-key <key>', 'the API key (default $KLVSCOPE_API_KEY, else the key file of --data-dir)')
    .option('--data-dir <dir>', "the service's data folder, to read its key file (default $KLVSCOPE_DATA_DIR or ./data)")
    .option('--check <id>', 'only the findings of this check (repeatable; live-source for losses and silence)', collect, [])
    .option('--severity <level>', 'only findings of this severity or worse: info, warning or error')
    .option('--statistics', 'also print the statistics line every second')
    .option('--json', 'print each finding as a JSON line')
    .option('--max <n>', 'exit after this many findings', positiveNumber('--max'))
    .option('--fleet', "on a hub (serve --catalog): the findings of every probe's sessions instead of this service's own")
    .option('--probe <name>', 'on a hub: only the findings of this probe (repeatable; implies --fleet)', collect, [])
    .action(async (options: WatchOptions) => {
      // Loaded on demand, like serve: the tRPC client costs the other commands nothing.
      const { runWatch } = await import('./watch-command.js');
      process.exitCode = await runWatch(options);
    });

  program
    .command('replay')
    .description('send a transport stream file to a UDP address as a live feed, paced by its PCR (Ctrl+C stops)')
    .argument('<file>', 'MPEG-TS file (188, 192 or 204-byte packets; 188-byte packets are sent)')
    .argument('<url>', 'destination: udp://HOST:PORT or udp://GROUP:PORT, options ?ttl=N&interface=ADDR')
    .option('--speed <x>', 'pace: 1 real time, 4 four times as fast, 0 or max as fast as possible', '1')
    .option('--loop', 'start again at the end of the file, until Ctrl+C; the stream continues across the restart (PCR, PTS, continuity counters and ST 0601 time carried on)')
    .option('--rtp', 'wrap each datagram in RTP (payload type 33, MP2T)')
    .option('--packets-per-datagram <n>', 'TS packets per datagram', '7')
    .option('--ttl <n>', 'time to live (hops) of the datagrams; a multicast group gets 1 unless given')
    .action(async (file: string, url: string, options: ReplayCliOptions) => {
      process.exitCode = await runReplay(file, url, options);
    });

  program
    .command('worker')
    .description("a node of the fleet: claim inspection jobs from the fleet's PostgreSQL and run them, until Ctrl+C or SIGTERM (docs/fleet.md)")
    .option('--catalog <url>', 'the fleet\'s PostgreSQL, postgres://user@host:5432/database (default $KLVSCOPE_CATALOG_URL)')
    .option('--concurrency <n>', 'jobs at once (default 1)')
    .option('--path-map <from=to>', 'read a recording queued under FROM at TO instead (repeatable)', collect, [])
    .option('--work-dir <dir>', 'scratch data folders, one per job (default: a folder under the system temp folder)')
    .option('--lease-seconds <n>', 'how long a claim holds without a heartbeat before another worker takes the job (default 30)')
    .option('--profile <name>', 'rule profile: stanag4609 (default) or tr101290')
    .option('--rules <file>', 'a JSON rule set overriding the profile')
    .option('--config <file>', 'configuration file (default ./klvscope.config.json when present)')
    .option('--quiet', 'print nothing per job')
    .action(async (options: WorkerOptions) => {
      const { runWorker } = await import('./worker-command.js');
      await runWorker(options);
    });

  program
    .command('probe')
    .description("live sessions next to the feeds, reporting to the fleet's PostgreSQL for the hub (serve --catalog), until Ctrl+C or SIGTERM (docs/fleet.md)")
    .option('--catalog <url>', "the fleet's PostgreSQL, postgres://user@host:5432/database (default $KLVSCOPE_CATALOG_URL)")
    .option('--name <name>', 'the probe\'s name on the hub (letters, digits, . _ -); a restarted probe of the same name takes up its sessions')
    .option('--source <url>', 'a live source to watch: udp://GROUP:PORT, udp://SOURCE@GROUP:PORT, udp://HOST:PORT or serial:///dev/ttyX?baud=N (repeatable)', collect, [])
    .option('--no-data-seconds <s>', 'silence after which a session reports no data (default 5)')
    .option('--buffer-bytes <n>', 'what the probe keeps while the database is unreachable, at most (default 67108864, 64 MiB); past it the oldest track points, then readings, then findings are dropped and counted')
    .option('--profile <name>', 'rule profile: stanag4609 (default) or tr101290')
    .option('--rules <file>', 'a JSON rule set overriding the profile')
    .option('--config <file>', 'configuration file (default ./klvscope.config.json when present)')
    .option('--quiet', 'print nothing per session')
    .action(async (options: ProbeOptions) => {
      const { runProbe } = await import('./probe-command.js');
      await runProbe(options);
    });

  program
    .command('enqueue')
    .description("queue inspections of recordings (files, or folders of them) for the fleet's workers and follow the batch")
    .argument('<path...>', 'recordings, or folders holding them')
    .option('--catalog <url>', 'the fleet\'s PostgreSQL (default $KLVSCOPE_CATALOG_URL)')
    .option('--glob <pattern>', 'which files of a folder: a glob over their path in it (default **/*.{ts,m2ts,mts,trp,tsv})')
    .option('--no-wait', 'return once queued, without following the batch')
    .action(async (paths: string[], options: EnqueueOptions) => {
      const { runEnqueue } = await import('./enqueue-command.js');
      process.exitCode = await runEnqueue(paths, options);
    });

  program
    .command('fleet')
    .description("the fleet's workers (state, throughput, current job) and its queue")
    .option('--catalog <url>', 'the fleet\'s PostgreSQL (default $KLVSCOPE_CATALOG_URL)')
    .option('--json', 'print JSON (what GET /api/v1/fleet answers)')
    .action(async (options: { catalog?: string; json?: boolean }) => {
      const { runFleet } = await import('./fleet-command.js');
      await runFleet(options);
    });

  registerLicenseCommand(program);

  return program;
}

let stdoutGuarded = false;

/** A reader that goes away (`klvscope klv FILE | head`) ends the output, not with a crash. Once per process. */
function guardStdout(): void {
  if (stdoutGuarded) return;
  stdoutGuarded = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

/** sysexits' EX_IOERR. */
const DISK_FULL_EXIT_CODE = 74;

/** Runs one command line (the arguments after `klvscope`) and returns the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  guardStdout();
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      process.stderr.write(`klvscope: ${error.message.replace(/^error: /, '')}\n`);
      return 2;
    }
    if ((error as { code?: unknown } | null)?.code === 'ERR_STORE_DISK_FULL') {
      process.stderr.write(`klvscope: ${(error as Error).message}\n`);
      return DISK_FULL_EXIT_CODE;
    }
    if (error instanceof UsageError || isUserFileError(error)) {
      process.stderr.write(`klvscope: ${(error as Error).message}\n`);
      return 2;
    }
    process.stderr.write(`klvscope: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 70;
  }
}

/** Errors about the user's input (files, plugins, rules, the data folder, serve's host, port or key), each with a stable code. */
function isUserFileError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('ERR_FILE') || code === 'ERR_NOT_A_FILE' || code === 'ERR_GENERATOR_OPTIONS' || code === 'ERR_FAULT_SPEC' || code.startsWith('ERR_PLUGIN') || code.startsWith('ERR_CONFIG') || code.startsWith('ERR_RULES') || code.startsWith('ERR_PROFILE') || code.startsWith('ERR_TEMPLATE') || code === 'ERR_STORE_LOCKED' || code === 'ERR_STORE_SCHEMA_TOO_NEW' || code === 'ERR_CATALOG_UNAVAILABLE' || code === 'ERR_NOT_TRANSPORT_STREAM' || isServiceStartError(code));
}

/** Why `serve` could not start: a host that is not loopback, a port in use, an unusable API key or key file. */
function isServiceStartError(code: string): boolean {
  return code === 'ERR_HOST_NOT_LOOPBACK' || code === 'ERR_LISTEN_FAILED' || code === 'ERR_API_KEY_UNUSABLE' || code === 'ERR_API_KEY_FILE_INSECURE' || code === 'ERR_STREAM_CONFIG_INVALID' || code === 'ERR_CREDENTIALS_FILE_UNUSABLE' || code === 'ERR_MAP_TILES_UNUSABLE';
}

