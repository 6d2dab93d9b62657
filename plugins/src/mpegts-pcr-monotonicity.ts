/**
 * PCR steps of each PCR PID: a backward step, or a forward jump beyond the
 * limit, without discontinuity_indicator (ETSI TR 101 290 2.3b; ISO/IEC
 * 13818-1 2.4.3.5).
 */
import { PCR_HZ, defineCheck, pcrDelta27MHz } from '@klvscope/core';
import { z } from 'zod';
import { PidLabels, hexPid } from './interval-points.js';

export const mpegtsPcrMonotonicity = defineCheck({
  id: 'mpegts-pcr-monotonicity',
  version: '1.0.0',
  title: 'PCR monotonicity',
  description: 'One point per PCR step of each PCR PID, in ms of PCR time; a backward step or a jump beyond maxJumpMs without discontinuity_indicator is a violation.',
  rules: z.object({
    maxJumpMs: z.number().positive().default(100).describe('largest forward PCR step without discontinuity_indicator: 100 ms (ETSI TR 101 290 2.3b)'),
  }),
  consumes: ['pcr'],
  create(ctx) {
    const labels = new PidLabels((pid) => `PCR on PID ${pid}: step`);
    const last = new Map<number, number>();
    return {
      pcr(obs) {
        const previous = last.get(obs.pid);
        last.set(obs.pid, obs.pcr27MHz);
        if (previous === undefined) return;
        const stepMs = (pcrDelta27MHz(previous, obs.pcr27MHz) / PCR_HZ) * 1000;
        const broken = !obs.discontinuity && (stepMs < 0 || stepMs > ctx.rules.maxJumpMs);
        const kind = stepMs < 0 ? 'backward step' : 'forward jump';
        ctx.point(obs, {
          message: broken
            ? `PCR on PID ${hexPid(obs.pid)}: ${kind} of ${stepMs.toFixed(1)} ms without discontinuity_indicator`
            : obs.discontinuity
              ? `PCR on PID ${hexPid(obs.pid)}: step with discontinuity_indicator set`
              : labels.get(obs.pid),
          value: stepMs,
          unit: 'ms',
          violation: broken,
          citation: 'ETSI TR 101 290 2.3b; ISO/IEC 13818-1 2.4.3.5',
          type: broken ? (stepMs < 0 ? 'pcr-backward' : 'pcr-jump') : 'pcr-step',
        });
      },
      finish() {
        if (last.size === 0) ctx.notApplicable('no PCR in this source');
      },
    };
  },
});
