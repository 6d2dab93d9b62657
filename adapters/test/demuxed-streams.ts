/**
 * What the transcoder and capture tests compare: the PMT's stream types,
 * each PID's PES time stamps with their random access flags, and each PID's
 * KLV packets (PTS and bytes), as core's KLV-aware demuxer finds them.
 */
import { createKlvAwareTsDemuxer, type TsErrorObservation } from '@klvscope/core';

export interface DemuxedStreams {
  /** PID -> stream_type, from the first PMT. */
  streamTypes: Map<number, number>;
  /** PID -> PTS of each PES (null without). */
  pesPts: Map<number, Array<number | null>>;
  /** PID -> PTS of each PES whose first packet has random_access_indicator set. */
  randomAccessPts: Map<number, Array<number | null>>;
  /** PID -> each KLV packet: PTS and the whole triplet as hex. */
  klv: Map<number, Array<{ pts90kHz: number | null; hex: string }>>;
  errors: TsErrorObservation[];
}

export function demuxStreams(bytes: Uint8Array): DemuxedStreams {
  const result: DemuxedStreams = { streamTypes: new Map(), pesPts: new Map(), randomAccessPts: new Map(), klv: new Map(), errors: [] };
  const push = <T>(map: Map<number, T[]>, pid: number, value: T) => {
    const list = map.get(pid) ?? [];
    list.push(value);
    map.set(pid, list);
  };
  const demuxer = createKlvAwareTsDemuxer((o) => {
    if (o.kind === 'pmt' && result.streamTypes.size === 0) for (const s of o.streams) result.streamTypes.set(s.pid, s.streamType);
    else if (o.kind === 'pes') {
      push(result.pesPts, o.pid, o.pts90kHz);
      if (o.randomAccess) push(result.randomAccessPts, o.pid, o.pts90kHz);
    } else if (o.kind === 'klv-packet') push(result.klv, o.pid, { pts90kHz: o.pts90kHz, hex: Buffer.from(o.raw).toString('hex') });
    else if (o.kind === 'ts-error') result.errors.push(o);
  });
  demuxer.push(bytes);
  demuxer.end();
  return result;
}
