/**
 * mpegts-max-pts-intervals: on each PES PID, the time between consecutive
 * PES that carry a PTS, in stream time (arrival, not PTS values). ETSI TR 101
 * 290 2.5 and ISO/IEC 13818-1 2.7.4 want a PTS at least every 700 ms. A PID
 * whose PES never carry a PTS (asynchronous KLV without PTS) has no
 * interval and no point.
 *
 * PCRs are consumed only for the clock: they time the PES sent before the
 * first PCR (see mpegts-stream-time.ts).
 */
import { defineCheck } from '@klvscope/core';
import * as z from 'zod/mini';
import { PTS_INTERVAL_CLAUSE } from './mpegts-clauses.js';
import { PidIntervals, intervalPoint } from './mpegts-intervals.js';
import { PidSeries } from './mpegts-pid-series.js';
import { StreamTime } from './mpegts-stream-time.js';

export const mpegtsMaxPtsIntervals = defineCheck({
  id: 'mpegts-max-pts-intervals',
  version: '1.1.0',
  title: 'PTS intervals',
  description: 'One point per interval between consecutive PES carrying a PTS on each PID, in ms of stream time; a violation above maxIntervalMs.',
  rules: z.object({
    maxIntervalMs: z._default(
      z.number().check(z.positive(), z.describe('longest allowed time between two PES with a PTS on a PID, ms (ETSI TR 101 290 2.5, ISO/IEC 13818-1 2.7.4, MISB ST 1402: 700)')),
      700,
    ),
  }),
  consumes: ['pes', 'pcr'],
  create(ctx) {
    const time = new StreamTime();
    const withPts = new PidIntervals(time);
    const series = new PidSeries((pid) => `PTS on PID ${pid}`, { unit: 'ms', citation: PTS_INTERVAL_CLAUSE, type: 'pts-interval' });
    const { maxIntervalMs } = ctx.rules;
    let measured = 0;
    return {
      pcr(pcr) {
        time.note(pcr);
      },
      pes(pes) {
        time.note(pes);
        if (pes.pts90kHz === null) return;
        const ms = withPts.next(pes.pid, pes);
        if (ms === null) return;
        measured++;
        intervalPoint(ctx, pes, ms, maxIntervalMs, series.get(pes.pid));
      },
      finish() {
        if (withPts.size === 0) ctx.notApplicable('no PES with a PTS in the stream');
        else if (measured === 0) ctx.notApplicable('no interval between PES with a PTS could be timed (a single one per PID, or no PCR)');
      },
    };
  },
});
