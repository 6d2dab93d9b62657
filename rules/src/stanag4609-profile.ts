/**
 * The `stanag4609` profile, the default: STANAG 4609 full-motion video as
 * MISB ST 1402 carries it in MPEG-2 transport streams and MISB ST 0601 fills
 * the metadata. Where MISB is silent the clause it inherits is cited
 * (ISO/IEC 13818-1, which ST 1402 references normatively, or ETSI TR 101 290);
 * where no standard gives a number the citation says so and names the
 * klvscope default documented in docs/checks.md.
 */
import { cite, freezeProfile, type RuleProfile } from './rule-profile.js';

const NO_STANDARD = 'no standard gives a value';
const TR = 'ETSI TR 101 290 V1.4.1';

export const STANAG_4609_PROFILE: RuleProfile = freezeProfile({
  name: 'stanag4609',
  title: 'STANAG 4609 (MISB ST 1402 transport, MISB ST 0601 metadata)',
  summary: 'the default: MISB ST 1402 table and clock cadences, ST 0601 mandatory items; ISO/IEC 13818-1 and ETSI TR 101 290 where MISB gives no value',
  checks: {
    'mpegts-errors': {
      patMaxIntervalMs: cite(250, 'MISB ST 1402: PAT at least every 250 ms'),
      pmtMaxIntervalMs: cite(250, 'MISB ST 1402: PMT at least every 250 ms'),
      pidMaxGapMs: cite(5000, `${NO_STANDARD} (${TR} 5.2.1 1.6 PID_error leaves the period to the user): klvscope default 5000 ms, docs/checks.md`),
      pcrMaxIntervalMs: cite(100, 'MISB ST 1402; ISO/IEC 13818-1 2.7.2: a PCR at least every 100 ms'),
      pcrMaxJumpMs: cite(100, `no MISB value; ${TR} 5.2.2 2.3b PCR_discontinuity_indicator_error: consecutive PCRs 0..100 ms apart unless discontinuity_indicator is set`),
      pcrAccuracyNs: cite(500, `ISO/IEC 13818-1 2.4.2 (referenced by MISB ST 1402): PCR tolerance ±500 ns; ${TR} 5.2.2 2.4 PCR_accuracy_error`),
      ptsMaxIntervalMs: cite(700, 'MISB ST 1402; ISO/IEC 13818-1 2.7.4: a PTS at least every 700 ms'),
    },
    'mpegts-pcr-intervals': {
      maxIntervalMs: cite(100, 'MISB ST 1402; ISO/IEC 13818-1 2.7.2: a PCR at least every 100 ms'),
    },
    'mpegts-pat-intervals': {
      maxIntervalMs: cite(250, 'MISB ST 1402: PAT at least every 250 ms'),
    },
    'mpegts-pmt-intervals': {
      maxIntervalMs: cite(250, 'MISB ST 1402: PMT at least every 250 ms'),
    },
    'mpegts-pcr-monotonicity': {
      maxJumpMs: cite(100, `no MISB value; ${TR} 5.2.2 2.3b PCR_discontinuity_indicator_error: 0..100 ms between consecutive PCRs unless discontinuity_indicator is set`),
    },
    'mpegts-pcr-pts-drift': {
      minDelayMs: cite(0, 'ISO/IEC 13818-1 2.4.2 (T-STD): a PTS already past when its PES arrives cannot be presented; no standard margin: 0 ms'),
      maxDelayMs: cite(1000, 'MISB ST 1402: synchronous metadata delay at most 1 s; ISO/IEC 13818-1 2.4.2 (T-STD): data leaves the buffers within 1 s'),
    },
    'mpegts-max-pts-intervals': {
      maxIntervalMs: cite(700, 'MISB ST 1402; ISO/IEC 13818-1 2.7.4: a PTS at least every 700 ms'),
    },
    'klv-mandatory-field-errors': {
      mandatoryTags: cite([1, 2, 65], 'MISB ST 0601: items 1 (Checksum), 2 (Precision Time Stamp) and 65 (UAS Datalink LS Version Number) are mandatory in every packet'),
    },
    'klv-timestamp-monotonicity': {
      allowEqual: cite(false, `${NO_STANDARD}: MISB ST 0601 item 2 is the time of each packet, so a repeat is a duplicate or a frozen clock; klvscope default false, docs/checks.md`),
      maxStepMs: cite(2000, `${NO_STANDARD}: klvscope default 2000 ms (two periods of 1 Hz KLV, the slowest rate in common use), docs/checks.md`),
    },
    'klv-packet-rate-consistency': {
      expectedRateHz: cite(null, `${NO_STANDARD}: MISB ST 0601 leaves the rate to the producer; klvscope default null (detected per PID), docs/checks.md`),
      tolerancePercent: cite(25, `${NO_STANDARD}: klvscope default 25 % of the period, docs/checks.md`),
      maxDeviationMs: cite(null, `${NO_STANDARD}: klvscope default null (tolerancePercent applies), docs/checks.md`),
      dropoutPeriods: cite(0.75, `${NO_STANDARD}: klvscope default 0.75 periods, docs/checks.md`),
    },
    'klv-stream-vs-klv-drift': {
      maxDriftMs: cite(100, `${NO_STANDARD} (MISB bounds no drift between KLV time stamps and the stream clock): klvscope default 100 ms (three frames at 30 fps), docs/checks.md`),
    },
  },
});
