/**
 * mpegts-pmt-intervals: the time between consecutive PMT sections (table_id
 * 0x02; ISO/IEC 13818-1 2.4.4.8) on each PMT PID, in stream time. MISB ST
 * 1402's STANAG 4609 profile wants one at least every 250 ms; ETSI TR 101
 * 290 1.5.a every 500 ms on each PID the PAT names.
 */
import { PMT_INTERVAL_CLAUSE } from './mpegts-clauses.js';
import { defineTableIntervalsCheck } from './mpegts-table-intervals.js';
import { hexPid } from './mpegts-stream-time.js';

export const mpegtsPmtIntervals = defineTableIntervalsCheck({
  id: 'mpegts-pmt-intervals',
  version: '1.1.0',
  title: 'PMT intervals',
  description: 'One point per interval between PMT sections of each PMT PID, in ms of stream time; a violation above maxIntervalMs.',
  table: 'PMT',
  defaultMaxIntervalMs: 250,
  maxIntervalDescription: 'longest allowed time between two PMT sections on a PMT PID, ms (MISB ST 1402 / STANAG 4609 profile: 250; ETSI TR 101 290 1.5.a: 500)',
  citation: PMT_INTERVAL_CLAUSE,
  type: 'pmt-interval',
  what: (pid) => `PMT on PID ${hexPid(pid)}`,
});
