/**
 * mpegts-pat-intervals: the time between consecutive PAT sections (PID
 * 0x0000, table_id 0x00; ISO/IEC 13818-1 2.4.4.3), in stream time. MISB ST
 * 1402's STANAG 4609 profile wants one at least every 250 ms; ETSI TR 101
 * 290 1.3.a every 500 ms.
 */
import { PAT_INTERVAL_CLAUSE } from './mpegts-clauses.js';
import { defineTableIntervalsCheck } from './mpegts-table-intervals.js';

export const mpegtsPatIntervals = defineTableIntervalsCheck({
  id: 'mpegts-pat-intervals',
  version: '1.1.0',
  title: 'PAT intervals',
  description: 'One point per interval between PAT sections, in ms of stream time; a violation above maxIntervalMs.',
  table: 'PAT',
  defaultMaxIntervalMs: 250,
  maxIntervalDescription: 'longest allowed time between two PAT sections, ms (MISB ST 1402 / STANAG 4609 profile: 250; ETSI TR 101 290 1.3.a: 500)',
  citation: PAT_INTERVAL_CLAUSE,
  type: 'pat-interval',
  what: () => 'PAT',
});
