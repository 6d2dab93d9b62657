/**
 * What the routes translate HTTP onto: the services of one running
 * inspection service, built once per server (createInspectionDeps) and
 * closed with it (closeInspectionDeps, before the store closes). Routes get
 * this object and nothing else, so a route file needs no knowledge of how
 * the service was put together.
 *
 * Adding a service (the workflow, the job queue, the file sessions, live
 * sessions, playback tokens): a field here, built in createInspectionDeps
 * from the store and the settings, stopped in closeInspectionDeps (stop jobs
 * and sessions there, so the store flushes what they wrote last).
 */
import { type AnyCheck, type Logger } from '@klvscope/core';
import { type Store } from '@klvscope/core/store';
import { FileSessions, JobQueue, type FileSourceOpener } from '@klvscope/core/workflow';
import { ffmpegNotFound, findFfmpeg, openLiveSource, type LiveSource } from '@klvscope/adapters';
import { join } from 'node:path';
import { BUILT_IN_CHECKS } from '@klvscope/plugins';
import { LicenceState } from '../licence/index.js';
import { LiveSessions } from '../live/live-sessions.js';
import type { ApiKeySource } from '../http/api-key.js';
import { fileSources } from './file-sources.js';
import { InspectionRules } from './inspection-rules.js';
import { PlaybackTokens } from './playback-tokens.js';
import type { FleetLink } from '../fleet/fleet-link.js';
import { PlaybackTranscodes } from './playback-transcode.js';
import { InspectionSettings, type Settings } from './inspection-settings.js';

export interface ApiKeyInfo {
  readonly source: ApiKeySource;
  /** The key file, when the key comes from it. */
  readonly filePath: string | null;
  /** True when this start created the key file. */
  readonly created: boolean;
}

export interface InspectionDeps {
  readonly store: Store;
  readonly settings: InspectionSettings;
  /** Where the key comes from; never the key itself. */
  readonly apiKey: ApiKeyInfo;
  readonly appVersion: string;
  readonly startedAtMs: number;
  readonly log: Logger;
  readonly clock: () => number;
  /** Recorded files as byte sources (the file adapter). */
  readonly files: FileSourceOpener;
  /** The current rule set and templates; `rules.workflow()` is the file workflow under them. */
  readonly rules: InspectionRules;
  /** Analysis, ingest and process jobs. */
  readonly jobs: JobQueue;
  /** The file sessions (one active at a time). */
  readonly fileSessions: FileSessions;
  readonly licence: LicenceState;
  /** Tokens of `GET /playback/{token}`, issued by file sessions. */
  readonly playback: PlaybackTokens;
  /** The H.264 variants of recordings a browser cannot play (`GET /playback/{token}?video=h264`), cached in the data folder. */
  readonly playbackTranscodes: PlaybackTranscodes;
  /** The live sessions (UDP, multicast, serial; one active at a time). */
  readonly live: LiveSessions;
  /** The fleet (`--catalog postgres://…`): inspections run on its workers; null on a single node. */
  readonly fleet: FleetLink | null;
}

export interface InspectionDepsInput {
  store: Store;
  apiKey: ApiKeyInfo;
  appVersion: string;
  log: Logger;
  defaultSettings?: Settings;
  clock?: () => number;
  /** Default: the built-in checks. */
  checks?: readonly AnyCheck[];
  /** The vendor's licence public key (PEM text or a path); default the built-in one. */
  licencePublicKey?: string;
  /** Opens a live source URL; default the adapters' (UDP, multicast, serial). */
  openLiveSource?: (url: string) => Promise<LiveSource>;
  /** The fleet's link, connected by the server (closed with the deps). */
  fleet?: FleetLink | null;
}

export async function createInspectionDeps(input: InspectionDepsInput): Promise<InspectionDeps> {
  const clock = input.clock ?? Date.now;
  const settings = new InspectionSettings(input.store, input.defaultSettings, input.log);
  const rules = new InspectionRules(input.store, input.checks ?? BUILT_IN_CHECKS, fileSources, clock);
  const live = new LiveSessions({
    store: input.store,
    openSource: input.openLiveSource ?? ((url) => openLiveSource(url)),
    checkRun: () => rules.checkRun(),
    settings: () => settings.current().live,
    log: input.log,
  });
  return {
    store: input.store,
    settings,
    apiKey: input.apiKey,
    appVersion: input.appVersion,
    startedAtMs: clock(),
    log: input.log,
    clock,
    files: fileSources,
    rules,
    jobs: new JobQueue({ concurrency: settings.current().jobs.concurrency }),
    fileSessions: new FileSessions(input.store, () => rules.workflow(), clock),
    playback: new PlaybackTokens(() => settings.current().playback.tokenTtlSeconds * 1000, clock),
    playbackTranscodes: new PlaybackTranscodes(join(input.store.dataDir, 'playback-cache'), locateFfmpeg, input.log),
    live,
    fleet: input.fleet ?? null,
    licence: await LicenceState.open({ dataDir: input.store.dataDir, publicKey: input.licencePublicKey, clock: { nowMs: clock } }),
  };
}

/** Stops what the services run; the store is closed after this by whoever opened it. */
export async function closeInspectionDeps(deps: InspectionDeps): Promise<void> {
  // Running jobs are cancelled (a cancelled ingest leaves no completed run); their writes end before the store closes.
  await deps.jobs.shutdown();
  // The active live session ends as stopped, its last findings written before the store closes.
  await deps.live.close();
  // A transcode in progress is killed and its half-written file removed.
  await deps.playbackTranscodes.close();
  await deps.fleet?.close();
}

function locateFfmpeg(): { path: string } | { missing: string } {
  const path = findFfmpeg();
  return path === null ? { missing: ffmpegNotFound("Transcoding this recording's video for the browser").message } : { path };
}
