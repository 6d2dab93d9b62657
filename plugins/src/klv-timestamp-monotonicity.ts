/**
 * The time stamps of each KLV series (a PID and the standard of its sets:
 * ST 0601 item 2, ST 0903 item 2, EG 0104's time stamp) must move forward:
 * MISB ST 0603 time is a count of microseconds that never steps back (no
 * leap-second steps), and each ST 0601 packet carries the time of its own
 * sample. One point per packet with the step from the previous packet of the
 * series, in ms (a step that breaks nothing is labelled by its series only).
 * - A step back (a reversal) is an error at the packet that went back; the
 *   next packet, back on the line, is not a second violation.
 * - A repeat (step 0) is a warning unless `allowEqual`: two samples of one
 *   series with one time are a duplicate or a frozen clock.
 * - A leap forward beyond `maxStepMs`, measured from the latest time stamp so
 *   far (so the recovery after a reversal is not one), is a warning.
 */
import { defineCheck, type PointSeries } from '@klvscope/core';
import * as z from 'zod/mini';
import { countOf, isoMicros, klvPacketLabel, klvPidLabel, timestampCitation } from './klv-labels.js';
import { KlvSeriesMap } from './klv-series.js';

class Series {
  previousMicros: number | null = null;
  latestMicros = 0;
  /** The series of the steps that break nothing: the step itself is the point's value. */
  readonly stepSeries: PointSeries;
  readonly citation: string;

  constructor(pid: number, standard: string) {
    this.citation = timestampCitation(standard);
    this.stepSeries = { message: `${klvPidLabel(pid)}: ${standard} time stamp step since the previous packet`, unit: 'ms', citation: this.citation, type: 'klv-timestamp-step' };
  }
}

export const klvTimestampMonotonicity = defineCheck({
  id: 'klv-timestamp-monotonicity',
  version: '1.1.0',
  title: 'KLV time stamp monotonicity',
  description:
    'One point per KLV packet with a time stamp (ST 0601 item 2): the step from the previous packet of its PID and standard, in ms. A step back is an error, a repeat a warning (unless allowed), a leap beyond maxStepMs a warning.',
  rules: z.object({
    allowEqual: z._default(
      z.boolean().check(z.describe('whether two packets of one series may carry the same time stamp; false: MISB ST 0601 item 2 is the time of each sample, so a repeat is a duplicate or a frozen clock (our reading; no clause allows it)')),
      false,
    ),
    maxStepMs: z._default(
      z.nullable(z.number().check(z.positive(), z.describe('largest forward step of item 2, in ms, before it is a warning; null turns it off. No MISB standard bounds it: 2000 ms is our choice (two periods of 1 Hz KLV, the slowest rate in common use), so a step over it means lost packets or a clock jump'))),
      2000,
    ),
  }),
  consumes: ['klv-packet', 'metadata-packet'],
  create(ctx) {
    const { allowEqual, maxStepMs } = ctx.rules;
    const series = new KlvSeriesMap((pid, standard) => new Series(pid, standard));
    let timed = 0;
    return {
      'metadata-packet'(obs) {
        const micros = obs.timestampMicros;
        if (micros === null) {
          ctx.point(obs, { message: `${klvPacketLabel(obs.pid, obs.klvIndex)}: no time stamp to compare (klv-mandatory-field-errors reports a missing item 2)`, citation: timestampCitation(obs.standard), type: 'klv-timestamp-absent' });
          return;
        }
        timed++;
        const s = series.get(obs.pid, obs.standard);
        const citation = s.citation;
        if (s.previousMicros === null) {
          s.previousMicros = micros;
          s.latestMicros = micros;
          ctx.point(obs, { message: `${klvPacketLabel(obs.pid, obs.klvIndex)}: first ${obs.standard} time stamp, ${isoMicros(micros)}`, citation, type: 'klv-timestamp-first' });
          return;
        }
        const stepMs = (micros - s.previousMicros) / 1000;
        const aheadMs = (micros - s.latestMicros) / 1000;
        s.previousMicros = micros;
        if (micros > s.latestMicros) s.latestMicros = micros;
        let broken: { type: string; severity: 'warning' | 'error'; message: string } | null = null;
        if (stepMs < 0) {
          broken = { type: 'klv-timestamp-reversal', severity: 'error', message: `${klvPacketLabel(obs.pid, obs.klvIndex)}: time stamp goes back ${(-stepMs).toFixed(3)} ms (${isoMicros(micros)})` };
        } else if (stepMs === 0 && !allowEqual) {
          broken = { type: 'klv-timestamp-repeat', severity: 'warning', message: `${klvPacketLabel(obs.pid, obs.klvIndex)}: time stamp repeats the previous packet's (${isoMicros(micros)})` };
        } else if (maxStepMs !== null && aheadMs > maxStepMs) {
          broken = { type: 'klv-timestamp-jump', severity: 'warning', message: `${klvPacketLabel(obs.pid, obs.klvIndex)}: time stamp leaps ${aheadMs.toFixed(3)} ms ahead, more than ${maxStepMs} ms` };
        }
        if (broken === null) ctx.measure(obs, stepMs, s.stepSeries);
        else ctx.point(obs, { ...broken, value: stepMs, unit: 'ms', violation: true, citation });
      },
      finish() {
        const klvPackets = ctx.observed('klv-packet');
        if (klvPackets === 0) ctx.notApplicable('no KLV in this source');
        else if (timed === 0) ctx.notApplicable(`no time stamp (ST 0601 item 2) in ${countOf(klvPackets, 'KLV packet')}`);
      },
    };
  },
});
