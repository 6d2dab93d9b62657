/** The ST 0601 precision time stamp (item 2) must advance from packet to packet on each KLV PID (MISB ST 0601 item 2; MISB ST 0603). */
import { defineCheck } from '@klvscope/core';
import { z } from 'zod';
import { hexPid } from './interval-points.js';

export const klvTimestampMonotonicity = defineCheck({
  id: 'klv-timestamp-monotonicity',
  version: '1.0.0',
  title: 'KLV time stamp monotonicity',
  description: 'One point per ST 0601 packet with the step of its precision time stamp from the previous packet of the PID, in ms; a step back, or no step, is a violation.',
  rules: z.object({
    allowEqual: z.boolean().default(false).describe('whether two packets may carry the same time stamp: no by default, as item 2 dates each packet (MISB ST 0601 item 2, ST 0603); no standard threshold'),
  }),
  consumes: ['metadata-packet'],
  create(ctx) {
    const last = new Map<number, number>();
    let stamped = 0;
    return {
      'metadata-packet'(obs) {
        if (obs.timestampMicros === null) return;
        stamped++;
        const previous = last.get(obs.pid);
        last.set(obs.pid, obs.timestampMicros);
        if (previous === undefined) return;
        const stepMs = (obs.timestampMicros - previous) / 1000;
        const broken = stepMs < 0 || (stepMs === 0 && !ctx.rules.allowEqual);
        ctx.point(obs, {
          message: broken
            ? `KLV PID ${hexPid(obs.pid)} packet ${obs.klvIndex}: time stamp ${stepMs < 0 ? `goes back ${(-stepMs).toFixed(3)} ms` : 'repeats'}`
            : `KLV PID ${hexPid(obs.pid)}: time stamp step`,
          value: stepMs,
          unit: 'ms',
          violation: broken,
          citation: 'MISB ST 0601 item 2 (Precision Time Stamp)',
          type: broken ? (stepMs < 0 ? 'timestamp-reversal' : 'timestamp-repeat') : 'timestamp-step',
        });
      },
      finish() {
        if (stamped === 0) ctx.notApplicable('no KLV packet with a precision time stamp in this source');
      },
    };
  },
});
