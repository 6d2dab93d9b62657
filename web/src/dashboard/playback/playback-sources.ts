/**
 * What the video, the KLV panel and the map of a recording need, from the
 * REST interface only (docs/rest.md): the analysis (video PID and codec, KLV
 * carriage per PID), the ingest run's first PCR and first video PTS (the
 * clocks, stream-clock.ts), every decoded metadata packet
 * (`klv/metadata-packets`), and a playback URL (a file session's token).
 * A file session replaces the active session: while a live session runs the
 * page does not take it over, and says so.
 */
import { isVideoStreamType } from '@klvscope/core/browser';
import type { ApiClient } from '../api-client.js';
import type { CarriageByPid, MetadataPacketRow } from './flight-metadata.js';

interface AnalysisAnswer {
  analyze: {
    inventory: { pids: Array<{ pid: number; streamType: number | null; streamTypeName: string | null }>; programs: Array<{ pcrPid: number | null; streams: number[] }> };
    klv: Array<{ pid: number; carriage: 'sync' | 'async' | 'raw' }>;
  };
}

interface DatasetPage<T> {
  total: number;
  rows: T[];
  nextCursor: string | null;
}

export interface VideoStream {
  pid: number;
  streamType: number;
  streamTypeName: string | null;
}

export interface PlaybackSources {
  video: VideoStream | null;
  carriage: CarriageByPid;
  /** The first PCR of the run (27 MHz); null without PCR. */
  firstPcr27MHz: number | null;
  /** The first video PES's PTS: where mpegts.js's time line starts. */
  firstVideoPts90kHz: number | null;
  metadata: MetadataPacketRow[];
  /** The playback URL, or why there is none. */
  playback: { url: string } | { refused: string };
}

const METADATA_PAGE = 50_000;
/** Video PES rows read at most to find the first one (the first few hundred PES of any file hold it). */
const PES_SCAN_ROWS = 2_000;

export async function loadPlaybackSources(api: ApiClient, filePath: string, ingestRunId: string): Promise<PlaybackSources> {
  const run = `/automation/ingest-runs/${encodeURIComponent(ingestRunId)}`;
  const [analysis, firstPcr, metadata, playback] = await Promise.all([
    api.post<AnalysisAnswer>('/analysis/file', { filePath }),
    api.get<DatasetPage<{ pcr27MHz: number }>>(`${run}/mpegts/pcr-values`, { limit: 1 }),
    readAll<MetadataPacketRow>(api, `${run}/klv/metadata-packets`),
    openPlayback(api, filePath),
  ]);
  const { inventory, klv } = analysis.analyze;
  const videoPid = inventory.pids.find((pid) => pid.streamType !== null && isVideoStreamType(pid.streamType));
  const video = videoPid ? { pid: videoPid.pid, streamType: videoPid.streamType as number, streamTypeName: videoPid.streamTypeName } : null;
  const firstVideoPts90kHz = video === null ? null : await firstPtsOn(api, run, video.pid);
  return {
    video,
    carriage: new Map(klv.map((summary) => [summary.pid, summary.carriage])),
    firstPcr27MHz: firstPcr.rows[0]?.pcr27MHz ?? null,
    firstVideoPts90kHz,
    metadata,
    playback,
  };
}

async function readAll<T>(api: ApiClient, path: string): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await api.get<DatasetPage<T>>(path, { limit: METADATA_PAGE, cursor });
    for (const row of page.rows) rows.push(row);
    if (page.nextCursor === null || page.rows.length === 0) return rows;
    cursor = page.nextCursor;
  }
}

async function firstPtsOn(api: ApiClient, run: string, pid: number): Promise<number | null> {
  const page = await api.get<DatasetPage<{ pid: number; pts90kHz: number | null }>>(`${run}/mpegts/pes-timestamps`, { limit: PES_SCAN_ROWS });
  return page.rows.find((row) => row.pid === pid && row.pts90kHz !== null)?.pts90kHz ?? null;
}

async function openPlayback(api: ApiClient, filePath: string): Promise<PlaybackSources['playback']> {
  const { active } = await api.get<{ active: { kind: 'file' | 'live'; status: string; source?: string } | null }>('/sessions/active');
  if (active?.kind === 'live' && ['waiting', 'receiving', 'no-data'].includes(active.status)) {
    return { refused: `a live session (${active.source ?? 'source'}) is running: playing this file would replace it. Stop it on the Live page to see the video.` };
  }
  const session = await api.post<{ playback: { url: string } }>('/sessions/file', { filePath });
  return { url: session.playback.url };
}
