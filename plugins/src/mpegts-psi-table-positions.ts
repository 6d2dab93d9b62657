/**
 * mpegts-psi-table-positions: where the PAT and PMT sections are. One
 * informational point per section (type 'PAT' or 'PMT', for the REST
 * `tableType` filter), its value the interval since the previous section of
 * the same table on the same PID (null for the first), in ms of stream time.
 * No violations: mpegts-pat-intervals and mpegts-pmt-intervals judge the
 * cadence.
 *
 * PCRs are consumed only for the clock: they time the sections sent before
 * the first PCR (see mpegts-stream-time.ts).
 */
import { defineCheck } from '@klvscope/core';
import { PidIntervals } from './mpegts-intervals.js';
import { PidSeries } from './mpegts-pid-series.js';
import { StreamTime, roundMs } from './mpegts-stream-time.js';

/** ISO/IEC 13818-1: the PAT (2.4.4.3) and the PMT (2.4.4.8). */
const CLAUSE = { PAT: 'ISO/IEC 13818-1 2.4.4.3', PMT: 'ISO/IEC 13818-1 2.4.4.8' } as const;

export const mpegtsPsiTablePositions = defineCheck({
  id: 'mpegts-psi-table-positions',
  version: '1.1.0',
  title: 'PAT/PMT positions',
  description:
    "One point per PAT and PMT section (type 'PAT' or 'PMT'), its value the interval since the previous section of the same table and PID (null for the first); informational, no violations.",
  consumes: ['psi-section', 'pcr'],
  create(ctx) {
    const time = new StreamTime();
    // Keyed by PID: PID 0x0000 carries the PAT, each PMT PID its PMT sections.
    const sections = new PidIntervals(time);
    const series = {
      PAT: new PidSeries((pid) => `PAT section on PID ${pid}`, { unit: 'ms', citation: CLAUSE.PAT, type: 'PAT' }),
      PMT: new PidSeries((pid) => `PMT section on PID ${pid}`, { unit: 'ms', citation: CLAUSE.PMT, type: 'PMT' }),
    };
    let count = 0;
    return {
      pcr(pcr) {
        time.note(pcr);
      },
      'psi-section'(section) {
        time.note(section);
        const table = section.tableType;
        if (table !== 'PAT' && table !== 'PMT') return;
        count++;
        const first = !sections.has(section.pid);
        const ms = sections.next(section.pid, section);
        const pidSeries = series[table].get(section.pid);
        if (ms !== null) {
          ctx.measure(section, roundMs(ms), pidSeries);
          return;
        }
        ctx.point(section, {
          message: first ? `${pidSeries.message}, the first` : `${pidSeries.message}, not timed`,
          value: null,
          unit: 'ms',
          citation: pidSeries.citation,
          type: table,
        });
      },
      finish() {
        if (count === 0) ctx.notApplicable('no PAT or PMT section in the stream');
      },
    };
  },
});
