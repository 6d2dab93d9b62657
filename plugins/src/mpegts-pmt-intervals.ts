/** PMT repetition: the interval between sections of each PMT PID (MISB ST 1402; ETSI TR 101 290 1.5). */
import { defineCheck } from '@klvscope/core';
import { z } from 'zod';
import { IntervalPoints, hexPid } from './interval-points.js';

export const mpegtsPmtIntervals = defineCheck({
  id: 'mpegts-pmt-intervals',
  version: '1.0.0',
  title: 'PMT intervals',
  description: 'One point per interval between PMT sections of each PMT PID, in ms of stream time.',
  rules: z.object({
    maxIntervalMs: z.number().positive().default(250).describe('longest allowed PMT interval: 250 ms (MISB ST 1402); TR 101 290 1.5 allows 500 ms'),
  }),
  consumes: ['psi-section'],
  create(ctx) {
    const intervals = new IntervalPoints(ctx, {
      maxIntervalMs: ctx.rules.maxIntervalMs,
      citation: 'MISB ST 1402; ETSI TR 101 290 1.5',
      type: 'pmt-interval',
      what: (pid) => `PMT on PID ${hexPid(pid)}`,
    });
    return {
      'psi-section'(obs) {
        if (obs.tableType === 'PMT') intervals.event(obs.pid, obs);
      },
      finish() {
        if (!intervals.seen) ctx.notApplicable('no PMT in this source');
      },
    };
  },
});
