/**
 * KLV time against stream time, per KLV PID: the precision time stamp's
 * elapsed time (MISB ST 0601 item 2) minus the stream's elapsed time since
 * the PID's first packet, from the PES PTS or, for KLV carried without PTS,
 * from the PCR at the packet's position (its stream time `t`). A metadata
 * clock that runs fast or slow against the video clock shows as a growing drift.
 */
import { PTS_HZ, defineCheck, ptsDelta90kHz } from '@klvscope/core';
import { z } from 'zod';
import { hexPid } from './interval-points.js';

interface Origin {
  timestampMicros: number;
  pts90kHz: number | null;
  t: number | null;
}

export const klvStreamVsKlvDrift = defineCheck({
  id: 'klv-stream-vs-klv-drift',
  version: '1.0.0',
  title: 'KLV time against stream time',
  description: "One point per ST 0601 packet: item 2's elapsed time minus the stream's elapsed time since the PID's first packet (by PTS, or without PTS by the PCR at the packet's position), in ms.",
  rules: z.object({
    maxDriftMs: z.number().positive().default(33).describe('largest allowed drift: no standard gives one; default one frame at 30 fps (33 ms)'),
  }),
  consumes: ['metadata-packet'],
  create(ctx) {
    const origins = new Map<number, Origin>();
    let measured = 0;
    /** Packets without any stream time (no PTS, no PCR yet). */
    let untimed = 0;
    return {
      'metadata-packet'(obs) {
        if (obs.timestampMicros === null) return;
        const origin = origins.get(obs.pid);
        // The origin is the first packet with a stream time (a packet before the first PCR has none).
        if (!origin && obs.pts90kHz === null && obs.t === null) {
          untimed++;
          return;
        }
        if (!origin) {
          origins.set(obs.pid, { timestampMicros: obs.timestampMicros, pts90kHz: obs.pts90kHz, t: obs.t });
          return;
        }
        let streamMs: number;
        if (origin.pts90kHz !== null && obs.pts90kHz !== null) streamMs = (ptsDelta90kHz(origin.pts90kHz, obs.pts90kHz) / PTS_HZ) * 1000;
        else if (origin.t !== null && obs.t !== null) streamMs = (obs.t - origin.t) * 1000;
        else {
          untimed++;
          return;
        }
        measured++;
        const driftMs = (obs.timestampMicros - origin.timestampMicros) / 1000 - streamMs;
        const broken = Math.abs(driftMs) > ctx.rules.maxDriftMs;
        ctx.point(obs, {
          message: broken
            ? `KLV PID ${hexPid(obs.pid)} packet ${obs.klvIndex}: KLV time ${driftMs > 0 ? 'ahead of' : 'behind'} stream time by ${Math.abs(driftMs).toFixed(3)} ms`
            : `KLV PID ${hexPid(obs.pid)}: drift`,
          value: driftMs,
          unit: 'ms',
          violation: broken,
          citation: 'MISB ST 0601 item 2; MISB ST 1402 (time stamps against the video clock)',
          type: broken ? 'klv-clock-drift' : 'klv-drift',
        });
      },
      finish() {
        if (measured === 0 && untimed > 0) ctx.notApplicable('the KLV carries no PTS and no PCR can stand in for it');
        else if (measured === 0) ctx.notApplicable('no ST 0601 packet with a precision time stamp in this source');
      },
    };
  },
});
