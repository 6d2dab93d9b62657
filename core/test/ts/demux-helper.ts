import type { Observation, ObservationOf, ObservationKind } from '../../src/kernel/observations.js';
import { TsDemuxer, type DemuxerOptions } from '../../src/ts/demuxer.js';

/** Runs the demuxer over `bytes` in chunks of `chunkSize` and returns every observation. */
export function demux(bytes: Uint8Array, chunkSize = bytes.length || 1, options: DemuxerOptions = {}): Observation[] {
  const observations: Observation[] = [];
  const demuxer = new TsDemuxer((o) => observations.push(o), options);
  for (let i = 0; i < bytes.length; i += chunkSize) demuxer.push(bytes.subarray(i, i + chunkSize));
  demuxer.end();
  return observations;
}

export function ofKind<K extends ObservationKind>(observations: Observation[], kind: K): ObservationOf<K>[] {
  return observations.filter((o): o is ObservationOf<K> => o.kind === kind);
}

export function errors(observations: Observation[]): ObservationOf<'ts-error'>[] {
  return ofKind(observations, 'ts-error');
}
