/** PCR repetition: the interval between PCRs of each PCR PID (ISO 13818-1 2.7.2; MISB ST 1402). */
import { defineCheck } from '@klvscope/core';
import { z } from 'zod';
import { IntervalPoints, hexPid } from './interval-points.js';

export const mpegtsPcrIntervals = defineCheck({
  id: 'mpegts-pcr-intervals',
  version: '1.0.0',
  title: 'PCR intervals',
  description: 'One point per interval between PCRs of a PCR PID, in ms of stream time.',
  rules: z.object({
    maxIntervalMs: z.number().positive().default(100).describe('longest allowed PCR interval: 100 ms (ISO/IEC 13818-1 2.7.2, MISB ST 1402); TR 101 290 2.3a uses 40 ms'),
  }),
  consumes: ['pcr'],
  create(ctx) {
    const intervals = new IntervalPoints(ctx, {
      maxIntervalMs: ctx.rules.maxIntervalMs,
      citation: 'ISO/IEC 13818-1 2.7.2; MISB ST 1402',
      type: 'pcr-interval',
      what: (pid) => `PCR on PID ${hexPid(pid)}`,
    });
    return {
      pcr(obs) {
        intervals.event(obs.pid, obs);
      },
      finish() {
        if (!intervals.seen) ctx.notApplicable('no PCR in this source');
      },
    };
  },
});
