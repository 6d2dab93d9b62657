/**
 * mpegts-pcr-monotonicity: every step between consecutive PCR values of
 * each PCR PID, in ms (wrap-aware at 2^33 * 300). ETSI TR 101 290 2.3b: the
 * difference must lie in 0..100 ms unless discontinuity_indicator announces
 * a new time base (ISO/IEC 13818-1 2.4.3.5), set in the PCR's packet or in a
 * packet of the PID since the previous PCR. A step with the indicator is a
 * point, not a violation.
 *
 * TR 101 290 judges the values, not the arrival: a stretch without PCRs
 * longer than the limit is a forward step too (mpegts-pcr-intervals shows
 * it as a long interval).
 */
import { defineCheck } from '@klvscope/core';
import * as z from 'zod/mini';
import { PCR_STEP_CLAUSE } from './mpegts-clauses.js';
import { PcrSteps } from './mpegts-pcr-steps.js';
import { PidSeries } from './mpegts-pid-series.js';
import { formatMs, hexPid, roundMs } from './mpegts-stream-time.js';

export const mpegtsPcrMonotonicity = defineCheck({
  id: 'mpegts-pcr-monotonicity',
  version: '1.1.0',
  title: 'PCR monotonicity',
  description:
    'One point per PCR step of each PCR PID, in ms of PCR time; a backward step or a forward jump beyond maxJumpMs without discontinuity_indicator is a violation.',
  rules: z.object({
    maxJumpMs: z._default(
      z.number().check(z.positive(), z.describe('largest forward step between consecutive PCR values without discontinuity_indicator, ms (ETSI TR 101 290 2.3b: 100)')),
      100,
    ),
  }),
  consumes: ['pcr', 'discontinuity'],
  create(ctx) {
    const steps = new PcrSteps();
    const series = new PidSeries((pid) => `PCR on PID ${pid}: step`, { unit: 'ms', citation: PCR_STEP_CLAUSE, type: 'pcr-step' });
    const { maxJumpMs } = ctx.rules;
    let measured = 0;
    return {
      discontinuity(discontinuity) {
        steps.discontinuity(discontinuity);
      },
      pcr(pcr) {
        const step = steps.next(pcr);
        if (step === null) return;
        measured++;
        const ms = roundMs(step.valueStepMs);
        const backward = ms < 0;
        const jump = ms > maxJumpMs;
        if (!step.signalled && !backward && !jump) {
          ctx.measure(pcr, ms, series.get(pcr.pid));
          return;
        }
        const violation = !step.signalled;
        let message: string;
        let type: string;
        if (step.signalled) {
          message = `PCR on PID ${hexPid(pcr.pid)} steps ${formatMs(ms)} with discontinuity_indicator set: a new time base`;
          type = 'pcr-signalled-discontinuity';
        } else if (backward) {
          message = `PCR on PID ${hexPid(pcr.pid)} goes back ${formatMs(-ms)} without discontinuity_indicator`;
          type = 'pcr-backward';
        } else {
          message = `PCR on PID ${hexPid(pcr.pid)} jumps ${formatMs(ms)} forward without discontinuity_indicator (limit ${formatMs(maxJumpMs)})`;
          type = 'pcr-jump';
        }
        ctx.point(pcr, { message, value: ms, unit: 'ms', violation, severity: violation ? 'error' : 'info', citation: PCR_STEP_CLAUSE, type });
      },
      finish() {
        if (steps.pidCount === 0) ctx.notApplicable('no PCR in the stream');
        else if (measured === 0) ctx.notApplicable('no PCR PID carried two PCRs: no step to measure');
      },
    };
  },
});
