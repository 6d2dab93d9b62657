/**
 * Rule profiles: for each check and rule, a value and the clause it comes
 * from. `stanag4609` (the default) follows MISB ST 1402 / ST 0601, as the
 * checks' own defaults do; `tr101290` the values of ETSI TR 101 290 (V1.4.1).
 * Where no standard gives a threshold the citation says so and names the
 * documented default.
 */
import { RulesError } from './rules-error.js';

export interface CitedValue {
  value: unknown;
  citation: string;
}

export interface RuleProfile {
  name: string;
  title: string;
  /** check id -> rule key -> cited value. */
  checks: Readonly<Record<string, Readonly<Record<string, CitedValue>>>>;
}

const NO_STANDARD = 'no standard threshold: klvscope default';

const STANAG_4609: RuleProfile = {
  name: 'stanag4609',
  title: 'STANAG 4609 / MISB ST 1402 (default)',
  checks: {
    'mpegts-errors': {
      patMaxIntervalMs: { value: 250, citation: 'MISB ST 1402: PAT at least every 250 ms' },
      pmtMaxIntervalMs: { value: 250, citation: 'MISB ST 1402: PMT at least every 250 ms' },
      pidMaxGapMs: { value: 5000, citation: `ETSI TR 101 290 1.6 leaves the period to the user; ${NO_STANDARD} 5 s` },
      pcrMaxIntervalMs: { value: 100, citation: 'MISB ST 1402 and ISO/IEC 13818-1 2.7.2: PCR at least every 100 ms' },
      pcrMaxJumpMs: { value: 100, citation: 'ETSI TR 101 290 2.3b: consecutive PCRs within 0..100 ms' },
      pcrAccuracyNs: { value: 500, citation: 'ISO/IEC 13818-1 2.4.2.2, ETSI TR 101 290 2.4: ±500 ns' },
      ptsMaxIntervalMs: { value: 700, citation: 'MISB ST 1402 and ETSI TR 101 290 2.5: PTS at least every 700 ms' },
    },
    'mpegts-pcr-intervals': { maxIntervalMs: { value: 100, citation: 'MISB ST 1402, ISO/IEC 13818-1 2.7.2: 100 ms' } },
    'mpegts-pat-intervals': { maxIntervalMs: { value: 250, citation: 'MISB ST 1402: 250 ms' } },
    'mpegts-pmt-intervals': { maxIntervalMs: { value: 250, citation: 'MISB ST 1402: 250 ms' } },
    'mpegts-pcr-monotonicity': { maxJumpMs: { value: 100, citation: 'ETSI TR 101 290 2.3b: 100 ms' } },
    'mpegts-pcr-pts-drift': {
      minDelayMs: { value: 0, citation: 'ISO/IEC 13818-1 2.7.4: a PTS in the past cannot be presented' },
      maxDelayMs: { value: 1000, citation: 'MISB ST 1402: synchronous metadata delay at most 1 s; ISO/IEC 13818-1 2.7.4 (T-STD 1 s)' },
    },
    'mpegts-max-pts-intervals': { maxIntervalMs: { value: 700, citation: 'MISB ST 1402, ETSI TR 101 290 2.5: 700 ms' } },
    'klv-mandatory-field-errors': { mandatoryTags: { value: [1, 2, 65], citation: 'MISB ST 0601: items 1 (checksum), 2 (time stamp), 65 (version)' } },
    'klv-timestamp-monotonicity': { allowEqual: { value: false, citation: 'MISB ST 0601 item 2 dates each packet; equal stamps refused' } },
    'klv-packet-rate-consistency': {
      expectedRateHz: { value: null, citation: `MISB ST 0601 leaves the rate to the producer: detected` },
      tolerancePercent: { value: 25, citation: `${NO_STANDARD} 25 %` },
    },
    'klv-stream-vs-klv-drift': { maxDriftMs: { value: 100, citation: `${NO_STANDARD} 100 ms (without PTS, multiplexer placement alone moves the reading 13-20 ms)` } },
  },
};

const TR_101_290: RuleProfile = {
  name: 'tr101290',
  title: 'ETSI TR 101 290 (DVB measurement guidelines)',
  checks: {
    ...STANAG_4609.checks,
    'mpegts-errors': {
      ...STANAG_4609.checks['mpegts-errors'],
      patMaxIntervalMs: { value: 500, citation: 'ETSI TR 101 290 1.3: PAT at least every 0.5 s' },
      pmtMaxIntervalMs: { value: 500, citation: 'ETSI TR 101 290 1.5: PMT at least every 0.5 s' },
      pcrMaxIntervalMs: { value: 40, citation: 'ETSI TR 101 290 2.3a: PCR repetition at most 40 ms (DVB)' },
    },
    'mpegts-pcr-intervals': { maxIntervalMs: { value: 40, citation: 'ETSI TR 101 290 2.3a: 40 ms' } },
    'mpegts-pat-intervals': { maxIntervalMs: { value: 500, citation: 'ETSI TR 101 290 1.3: 0.5 s' } },
    'mpegts-pmt-intervals': { maxIntervalMs: { value: 500, citation: 'ETSI TR 101 290 1.5: 0.5 s' } },
  },
};

const PROFILES: readonly RuleProfile[] = [STANAG_4609, TR_101_290];

export const DEFAULT_PROFILE = 'stanag4609';

export function listProfiles(): readonly RuleProfile[] {
  return PROFILES;
}

export function getProfile(name: string): RuleProfile {
  const found = PROFILES.find((p) => p.name === name);
  if (!found) throw new RulesError('ERR_PROFILE_UNKNOWN', `unknown rule profile '${name}' (known: ${PROFILES.map((p) => p.name).join(', ')})`);
  return found;
}
