/**
 * Reading a recorder's folder back in tests: its files in recording order,
 * their bytes joined, and what core's demuxer finds in them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TsDemuxer, type PidStatsObservation, type TsErrorObservation } from '@klvscope/core';

/** The recordings of the folder in the order they were started: by UTC start, then `_<n>` (none, _1, _2, ... _10). */
export function recordedFiles(folder: string): string[] {
  const keyed = readdirSync(folder).flatMap((name) => {
    const match = /_(\d{8}T\d{6}Z)(?:_(\d+))?\.ts$/.exec(name);
    return match ? [{ name, start: match[1], attempt: Number(match[2] ?? 0) }] : [];
  });
  keyed.sort((a, b) => (a.start === b.start ? a.attempt - b.attempt : a.start < b.start ? -1 : 1));
  return keyed.map(({ name }) => join(folder, name));
}

export function joinedBytes(paths: string[]): Uint8Array {
  return Buffer.concat(paths.map((path) => readFileSync(path)));
}

export interface DemuxedTotals {
  packetsByPid: Map<number, number>;
  continuityErrors: number;
  errors: TsErrorObservation[];
}

/** Demuxes `bytes` in one go: packets per PID, continuity errors, every ts-error. */
export function demuxTotals(bytes: Uint8Array): DemuxedTotals {
  const stats: PidStatsObservation[] = [];
  const errors: TsErrorObservation[] = [];
  const demuxer = new TsDemuxer((observation) => {
    if (observation.kind === 'pid-stats') stats.push(observation);
    else if (observation.kind === 'ts-error') errors.push(observation);
  });
  demuxer.push(bytes);
  demuxer.end();
  return {
    packetsByPid: new Map(stats.map((s) => [s.pid, s.packets])),
    continuityErrors: stats.reduce((n, s) => n + s.continuityErrors, 0),
    errors,
  };
}

/** The index of the first 188-byte packet that does not start with 0x47, or -1. */
export function firstUnsyncedPacket(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i += 188) if (bytes[i] !== 0x47) return i / 188;
  return -1;
}
