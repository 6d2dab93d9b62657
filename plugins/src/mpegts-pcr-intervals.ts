/**
 * mpegts-pcr-intervals: the time between consecutive PCRs of each PCR PID
 * (ISO/IEC 13818-1 2.7.2 and ETSI TR 101 290 2.3a: at most 0.1 s).
 *
 * The interval is the arrival interval: the stream time between the two
 * packets, which is the PCR difference while the clock is continuous. A PCR
 * value that jumps is not a long interval here (it is a step in
 * mpegts-pcr-monotonicity); a stretch without PCRs is.
 */
import { defineCheck } from '@klvscope/core';
import * as z from 'zod/mini';
import { PCR_INTERVAL_CLAUSE } from './mpegts-clauses.js';
import { intervalPoint } from './mpegts-intervals.js';
import { PcrSteps } from './mpegts-pcr-steps.js';
import { PidSeries } from './mpegts-pid-series.js';

export const mpegtsPcrIntervals = defineCheck({
  id: 'mpegts-pcr-intervals',
  version: '1.1.0',
  title: 'PCR intervals',
  description: 'One point per interval between consecutive PCRs of a PCR PID, in ms of arrival (stream) time; a violation above maxIntervalMs.',
  rules: z.object({
    maxIntervalMs: z._default(
      z.number().check(z.positive(), z.describe('longest allowed time between two PCRs of a PID, ms (MISB ST 1402 and ISO/IEC 13818-1 2.7.2: 100; ETSI TR 101 290 2.3a: 100 as well)')),
      100,
    ),
  }),
  consumes: ['pcr'],
  create(ctx) {
    const steps = new PcrSteps();
    const series = new PidSeries((pid) => `PCR on PID ${pid}`, { unit: 'ms', citation: PCR_INTERVAL_CLAUSE, type: 'pcr-interval' });
    const { maxIntervalMs } = ctx.rules;
    let intervals = 0;
    return {
      pcr(pcr) {
        const step = steps.next(pcr);
        if (step === null) return;
        intervals++;
        intervalPoint(ctx, pcr, step.arrivalMs, maxIntervalMs, series.get(pcr.pid));
      },
      finish() {
        if (steps.pidCount === 0) ctx.notApplicable('no PCR in the stream');
        else if (intervals === 0) ctx.notApplicable('no PCR PID carried two PCRs: no interval to measure');
      },
    };
  },
});
