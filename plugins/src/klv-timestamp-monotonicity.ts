/**
 * The time stamps of each KLV series (a PID and the standard of its sets:
 * ST 0601 item 2, ST 0903 item 2, EG 0104's time stamp) must move forward:
 * MISB ST 0603 time is a count of microseconds that never steps back (no
 * leap-second steps), and each ST 0601 packet carries the time of its own
 * sample. One point per packet with the step from the previous packet of the
 * series, in ms.
 * - A step back (a reversal) is an error at the packet that went back; the
 *   next packet, back on the line, is not a second violation.
 * - A repeat (step 0) is a warning unless `allowEqual`: two samples of one
 *   series with one time are a duplicate or a frozen clock.
 * - A leap forward beyond `maxStepMs`, measured from the latest time stamp so
 *   far (so the recovery after a reversal is not one), is a warning.
 */
import { defineCheck } from '@klvscope/core';
import { z } from 'zod';
import { countOf, isoMicros, klvPacketLabel, signedMs, timestampCitation } from './klv-labels.js';

interface Series {
  previousMicros: number | null;
  latestMicros: number;
}

export const klvTimestampMonotonicity = defineCheck({
  id: 'klv-timestamp-monotonicity',
  version: '1.1.0',
  title: 'KLV time stamp monotonicity',
  description:
    'One point per KLV packet with a time stamp (ST 0601 item 2): the step from the previous packet of its PID and standard, in ms. A step back is an error, a repeat a warning (unless allowed), a leap beyond maxStepMs a warning.',
  rules: z.object({
    allowEqual: z
      .boolean()
      .default(false)
      .describe('whether two packets of one series may carry the same time stamp; false: MISB ST 0601 item 2 is the time of each sample, so a repeat is a duplicate or a frozen clock (our reading; no clause allows it)'),
    maxStepMs: z
      .number()
      .positive()
      .nullable()
      .default(2000)
      .describe('largest forward step of item 2, in ms, before it is a warning; null turns it off. No MISB standard bounds it: 2000 ms is our choice (two periods of 1 Hz KLV, the slowest rate in common use), so a step over it means lost packets or a clock jump'),
  }),
  consumes: ['klv-packet', 'metadata-packet'],
  create(ctx) {
    const { allowEqual, maxStepMs } = ctx.rules;
    const series = new Map<string, Series>();
    let klvPackets = 0;
    let timed = 0;
    return {
      'klv-packet'() {
        klvPackets++;
      },
      'metadata-packet'(obs) {
        const label = klvPacketLabel(obs.pid, obs.klvIndex);
        const citation = timestampCitation(obs.standard);
        const micros = obs.timestampMicros;
        if (micros === null) {
          ctx.point(obs, { message: `${label}: no time stamp to compare (klv-mandatory-field-errors reports a missing item 2)`, citation, type: 'klv-timestamp-absent' });
          return;
        }
        timed++;
        const key = `${obs.pid}/${obs.standard}`;
        const s = series.get(key);
        if (!s || s.previousMicros === null) {
          series.set(key, { previousMicros: micros, latestMicros: micros });
          ctx.point(obs, { message: `${label}: first ${obs.standard} time stamp, ${isoMicros(micros)}`, citation, type: 'klv-timestamp-first' });
          return;
        }
        const stepMs = (micros - s.previousMicros) / 1000;
        const aheadMs = (micros - s.latestMicros) / 1000;
        s.previousMicros = micros;
        if (micros > s.latestMicros) s.latestMicros = micros;
        let message = `${label}: ${signedMs(stepMs)} since the previous packet`;
        let type = 'klv-timestamp-step';
        let severity: 'warning' | 'error' | undefined;
        if (stepMs < 0) {
          type = 'klv-timestamp-reversal';
          severity = 'error';
          message = `${label}: time stamp goes back ${(-stepMs).toFixed(3)} ms (${isoMicros(micros)})`;
        } else if (stepMs === 0 && !allowEqual) {
          type = 'klv-timestamp-repeat';
          severity = 'warning';
          message = `${label}: time stamp repeats the previous packet's (${isoMicros(micros)})`;
        } else if (maxStepMs !== null && aheadMs > maxStepMs) {
          type = 'klv-timestamp-jump';
          severity = 'warning';
          message = `${label}: time stamp leaps ${aheadMs.toFixed(3)} ms ahead, more than ${maxStepMs} ms`;
        }
        ctx.point(obs, { message, value: stepMs, unit: 'ms', violation: severity !== undefined, severity, citation, type });
      },
      finish() {
        if (klvPackets === 0) ctx.notApplicable('no KLV in this source');
        else if (timed === 0) ctx.notApplicable(`no time stamp (ST 0601 item 2) in ${countOf(klvPackets, 'KLV packet')}`);
      },
    };
  },
});
