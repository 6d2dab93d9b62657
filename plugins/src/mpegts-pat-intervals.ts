/** PAT repetition: the interval between PAT sections (MISB ST 1402; ETSI TR 101 290 1.3). */
import { defineCheck } from '@klvscope/core';
import { z } from 'zod';
import { IntervalPoints } from './interval-points.js';

export const mpegtsPatIntervals = defineCheck({
  id: 'mpegts-pat-intervals',
  version: '1.0.0',
  title: 'PAT intervals',
  description: 'One point per interval between PAT sections, in ms of stream time.',
  rules: z.object({
    maxIntervalMs: z.number().positive().default(250).describe('longest allowed PAT interval: 250 ms (MISB ST 1402); TR 101 290 1.3 allows 500 ms'),
  }),
  consumes: ['psi-section'],
  create(ctx) {
    const intervals = new IntervalPoints(ctx, {
      maxIntervalMs: ctx.rules.maxIntervalMs,
      citation: 'MISB ST 1402; ETSI TR 101 290 1.3',
      type: 'pat-interval',
      what: () => 'PAT',
    });
    return {
      'psi-section'(obs) {
        if (obs.tableType === 'PAT') intervals.event(0, obs);
      },
      finish() {
        if (!intervals.seen) ctx.notApplicable('no PAT in this source');
      },
    };
  },
});
