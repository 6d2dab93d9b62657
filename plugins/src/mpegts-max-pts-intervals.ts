/** PTS repetition: the interval between PES with a PTS on each PID, in stream time (ETSI TR 101 290 2.5; MISB ST 1402). */
import { defineCheck } from '@klvscope/core';
import { z } from 'zod';
import { IntervalPoints, hexPid } from './interval-points.js';

export const mpegtsMaxPtsIntervals = defineCheck({
  id: 'mpegts-max-pts-intervals',
  version: '1.0.0',
  title: 'PTS intervals',
  description: 'One point per interval between consecutive PES carrying a PTS on each PID, in ms of stream time.',
  rules: z.object({
    maxIntervalMs: z.number().positive().default(700).describe('longest allowed PTS interval: 700 ms (ETSI TR 101 290 2.5, MISB ST 1402)'),
  }),
  consumes: ['pes'],
  create(ctx) {
    const intervals = new IntervalPoints(ctx, {
      maxIntervalMs: ctx.rules.maxIntervalMs,
      citation: 'ETSI TR 101 290 2.5; MISB ST 1402',
      type: 'pts-interval',
      what: (pid) => `PTS on PID ${hexPid(pid)}`,
    });
    return {
      pes(obs) {
        if (obs.pts90kHz !== null) intervals.event(obs.pid, obs);
      },
      finish() {
        if (!intervals.seen) ctx.notApplicable('no PES with a PTS (or no PCR to time them) in this source');
      },
    };
  },
});
