/**
 * The rhythm of each KLV PID: intervals between packets (by PTS, else by
 * item 2, else by stream time) against the expected period — given, or
 * detected as the median of the first intervals. A dropout (a gap of 1.5
 * periods or more) and an interval off the period by more than the tolerance
 * are violations. No standard fixes a KLV rate (MISB ST 0601 leaves it to the
 * producer); the tolerance is a documented default.
 */
import { PTS_HZ, defineCheck, ptsDelta90kHz } from '@klvscope/core';
import { z } from 'zod';
import { hexPid } from './interval-points.js';

/** Intervals used to detect the period when none is given. */
const LEARNING_INTERVALS = 16;

interface PidRhythm {
  lastMs: number | null;
  lastPts90kHz: number | null;
  learning: number[];
  periodMs: number | null;
}

export const klvPacketRateConsistency = defineCheck({
  id: 'klv-packet-rate-consistency',
  version: '1.0.0',
  title: 'KLV packet rate consistency',
  description: 'One point per interval between KLV packets of a PID, in ms, against the expected or detected period; dropouts and intervals off the period are violations.',
  rules: z.object({
    expectedRateHz: z.number().positive().nullable().default(null).describe('packets per second expected; null detects it (median of the first 16 intervals); no standard rate'),
    tolerancePercent: z.number().positive().default(25).describe('largest deviation of an interval from the period, in % of the period; no standard tolerance, default 25 %'),
  }),
  consumes: ['metadata-packet'],
  create(ctx) {
    const rhythms = new Map<number, PidRhythm>();
    // Without a PTS the producer's own clock (item 2) tells its rate better than arrival times,
    // which carry the multiplexer's bursts.
    const timeMs = (pts90kHz: number | null, t: number | null, timestampMicros: number | null): number | null => {
      if (pts90kHz !== null) return (pts90kHz / PTS_HZ) * 1000;
      if (timestampMicros !== null) return timestampMicros / 1000;
      return t === null ? null : t * 1000;
    };
    const given = ctx.rules.expectedRateHz === null ? null : 1000 / ctx.rules.expectedRateHz;
    return {
      'metadata-packet'(obs) {
        const now = timeMs(obs.pts90kHz, obs.t, obs.timestampMicros);
        if (now === null) return;
        let r = rhythms.get(obs.pid);
        if (!r) rhythms.set(obs.pid, (r = { lastMs: null, lastPts90kHz: null, learning: [], periodMs: given }));
        const [last, lastPts] = [r.lastMs, r.lastPts90kHz];
        r.lastMs = now;
        r.lastPts90kHz = obs.pts90kHz;
        if (last === null) return;
        // By PTS, wrap-aware, when both packets have one.
        const intervalMs = obs.pts90kHz !== null && lastPts !== null ? (ptsDelta90kHz(lastPts, obs.pts90kHz) / PTS_HZ) * 1000 : now - last;
        if (r.periodMs === null) {
          r.learning.push(intervalMs);
          if (r.learning.length < LEARNING_INTERVALS) return;
          const sorted = [...r.learning].sort((a, b) => a - b);
          r.periodMs = sorted[sorted.length >> 1];
        }
        const period = r.periodMs;
        const deviationMs = intervalMs - period;
        const dropout = intervalMs >= 1.5 * period;
        const off = Math.abs(deviationMs) > (period * ctx.rules.tolerancePercent) / 100;
        ctx.point(obs, {
          message: dropout
            ? `KLV PID ${hexPid(obs.pid)}: no packet for ${intervalMs.toFixed(1)} ms (period ${period.toFixed(1)} ms)`
            : off
              ? `KLV PID ${hexPid(obs.pid)}: interval ${intervalMs.toFixed(1)} ms, off the ${period.toFixed(1)} ms period by ${deviationMs.toFixed(1)} ms`
              : `KLV PID ${hexPid(obs.pid)}: interval`,
          value: intervalMs,
          unit: 'ms',
          violation: dropout || off,
          severity: dropout ? 'error' : 'warning',
          citation: 'MISB ST 0601 (producer rate); klvscope default tolerance',
          type: dropout ? 'klv-dropout' : off ? 'klv-rate-jitter' : 'klv-interval',
        });
      },
      finish() {
        if (rhythms.size === 0) ctx.notApplicable('no timed KLV packet in this source');
      },
    };
  },
});
