/**
 * The `tr101290` profile: the transport stream thresholds of ETSI TR 101 290
 * V1.4.1 (2020-06), Measurement guidelines for DVB systems, clause 5.2.1
 * (first priority, table 5.0a) and 5.2.2 (second priority, table 5.0b).
 *
 * PCR repetition (2.3a): 100 ms between consecutive PCRs, as TSDuck's TR 101
 * 290 analyser applies it. Some test-equipment notes quote 40 ms; a user who
 * wants that sets `maxIntervalMs` (and mpegts-errors' `pcrMaxIntervalMs`).
 *
 * TR 101 290 says nothing about KLV: the klv-* entries are those of
 * `stanag4609`, with their MISB citations.
 */
import { cite, freezeProfile, type RuleProfile } from './rule-profile.js';
import { STANAG_4609_PROFILE } from './stanag4609-profile.js';

const TR = 'ETSI TR 101 290 V1.4.1';

const klvEntries = Object.fromEntries(Object.entries(STANAG_4609_PROFILE.checks).filter(([id]) => id.startsWith('klv-')));

export const TR_101_290_PROFILE: RuleProfile = freezeProfile({
  name: 'tr101290',
  title: 'ETSI TR 101 290 V1.4.1 (2020-06) measurement guidelines',
  summary: 'DVB transport stream monitoring: TR 101 290 priority 1 and 2 thresholds; KLV checks as in stanag4609',
  checks: {
    'mpegts-errors': {
      patMaxIntervalMs: cite(500, `${TR} 5.2.1 1.3 PAT_error, 1.3.a PAT_error_2: sections with table_id 0x00 at least every 0,5 s on PID 0x0000`),
      pmtMaxIntervalMs: cite(500, `${TR} 5.2.1 1.5 PMT_error, 1.5.a PMT_error_2: sections with table_id 0x02 at least every 0,5 s on each program_map_PID`),
      pidMaxGapMs: cite(5000, `${TR} 5.2.1 1.6 PID_error: "a user specified period", no value given: klvscope default 5000 ms, docs/checks.md`),
      pcrMaxIntervalMs: cite(100, `${TR} 5.2.2 2.3a PCR_repetition_error: more than 100 ms between consecutive PCRs (TSDuck uses 100 ms too; some test-equipment notes quote 40 ms)`),
      pcrMaxJumpMs: cite(100, `${TR} 5.2.2 2.3b PCR_discontinuity_indicator_error: PCR(i+1) - PCR(i) outside 0..100 ms without discontinuity_indicator`),
      pcrAccuracyNs: cite(500, `${TR} 5.2.2 2.4 PCR_accuracy_error: PCR accuracy of the selected programme not within ±500 ns`),
      ptsMaxIntervalMs: cite(700, `${TR} 5.2.2 2.5 PTS_error: PTS repetition period more than 700 ms`),
    },
    'mpegts-pcr-intervals': {
      maxIntervalMs: cite(100, `${TR} 5.2.2 2.3a PCR_repetition_error: more than 100 ms between consecutive PCRs (TSDuck uses 100 ms too; some test-equipment notes quote 40 ms)`),
    },
    'mpegts-pat-intervals': {
      maxIntervalMs: cite(500, `${TR} 5.2.1 1.3.a PAT_error_2: sections with table_id 0x00 at least every 0,5 s`),
    },
    'mpegts-pmt-intervals': {
      maxIntervalMs: cite(500, `${TR} 5.2.1 1.5.a PMT_error_2: sections with table_id 0x02 at least every 0,5 s`),
    },
    'mpegts-pcr-monotonicity': {
      maxJumpMs: cite(100, `${TR} 5.2.2 2.3b PCR_discontinuity_indicator_error: 0..100 ms between consecutive PCRs unless discontinuity_indicator is set`),
    },
    'mpegts-pcr-pts-drift': {
      minDelayMs: cite(0, `${TR} gives no lower bound; ISO/IEC 13818-1 2.4.2 (T-STD): a PTS already past on arrival cannot be presented: 0 ms`),
      maxDelayMs: cite(1000, `${TR} 5.2.3 3.10 Data_delay_error: delay through the T-STD buffers above 1 s (still pictures excepted)`),
    },
    'mpegts-max-pts-intervals': {
      maxIntervalMs: cite(700, `${TR} 5.2.2 2.5 PTS_error: PTS repetition period more than 700 ms`),
    },
    ...klvEntries,
  },
});
