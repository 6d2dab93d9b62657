/**
 * The shape shared by mpegts-pat-intervals and mpegts-pmt-intervals: one
 * point per interval between sections of one PSI table on each PID, in
 * stream time, a violation above `maxIntervalMs`.
 *
 * PCRs are consumed only for the clock: they time the sections sent before
 * the first PCR (see mpegts-stream-time.ts), so a stream's first interval is
 * measured too.
 */
import { defineCheck } from '@klvscope/core';
import * as z from 'zod/mini';
import { PidIntervals, intervalPoint } from './mpegts-intervals.js';
import { PidSeries } from './mpegts-pid-series.js';
import { StreamTime } from './mpegts-stream-time.js';

export interface TableIntervalsSpec {
  id: string;
  version: string;
  title: string;
  description: string;
  table: 'PAT' | 'PMT';
  defaultMaxIntervalMs: number;
  /** The rule's description, naming its source. */
  maxIntervalDescription: string;
  citation: string;
  type: string;
  /** The series in messages: 'PAT', 'PMT on PID 0x1000'. */
  what: (pid: number) => string;
}

export function defineTableIntervalsCheck(spec: TableIntervalsSpec) {
  return defineCheck({
    id: spec.id,
    version: spec.version,
    title: spec.title,
    description: spec.description,
    rules: z.object({
      maxIntervalMs: z._default(z.number().check(z.positive(), z.describe(spec.maxIntervalDescription)), spec.defaultMaxIntervalMs),
    }),
    consumes: ['psi-section', 'pcr'],
    create(ctx) {
      const time = new StreamTime();
      const sections = new PidIntervals(time);
      const series = new PidSeries((_text, pid) => spec.what(pid), { unit: 'ms', citation: spec.citation, type: spec.type });
      const { maxIntervalMs } = ctx.rules;
      let measured = 0;
      return {
        pcr(pcr) {
          time.note(pcr);
        },
        'psi-section'(section) {
          time.note(section);
          if (section.tableType !== spec.table) return;
          const ms = sections.next(section.pid, section);
          if (ms === null) return;
          measured++;
          intervalPoint(ctx, section, ms, maxIntervalMs, series.get(section.pid));
        },
        finish() {
          if (sections.size === 0) ctx.notApplicable(`no ${spec.table} section in the stream`);
          else if (measured === 0) ctx.notApplicable(`no interval between ${spec.table} sections could be timed (a single section per PID, or no PCR)`);
        },
      };
    },
  });
}
