import { expect } from 'chai';
import { DEFAULT_PROFILE, PROFILE_NAMES, RulesError, cite, getProfile, listProfiles, profileProblems, type RuleProfile } from '../src/index.js';
import { teamCheck, thrownBy } from './test-checks.js';

/** A profile's values without their citations: check id -> rule -> value. */
function valuesOf(profile: RuleProfile): Record<string, Record<string, unknown>> {
  return Object.fromEntries(Object.entries(profile.checks).map(([id, rules]) => [id, Object.fromEntries(Object.entries(rules).map(([rule, cited]) => [rule, cited.value]))]));
}

/** Every citation of a profile, as `id.rule` -> citation. */
function citationsOf(profile: RuleProfile): Record<string, string> {
  return Object.fromEntries(Object.entries(profile.checks).flatMap(([id, rules]) => Object.entries(rules).map(([rule, cited]) => [`${id}.${rule}`, cited.citation])));
}

const KLV_VALUES = {
  'klv-mandatory-field-errors': { mandatoryTags: [1, 2, 65] },
  'klv-timestamp-monotonicity': { allowEqual: false, maxStepMs: 2000 },
  'klv-packet-rate-consistency': { expectedRateHz: null, tolerancePercent: 25, maxDeviationMs: null, dropoutPeriods: 0.75 },
  'klv-stream-vs-klv-drift': { maxDriftMs: 100 },
};

describe('the rule profiles', () => {
  it('are stanag4609, the default, then tr101290', () => {
    expect(listProfiles().map((profile) => profile.name)).to.deep.equal(['stanag4609', 'tr101290']);
    expect(PROFILE_NAMES).to.deep.equal(['stanag4609', 'tr101290']);
    expect(DEFAULT_PROFILE).to.equal('stanag4609');
    expect(getProfile('tr101290')).to.equal(listProfiles()[1]);
  });

  it('refuses an unknown profile name, naming the known ones', () => {
    const error = thrownBy(() => getProfile('dvb-t2'));
    expect(error).to.be.instanceOf(RulesError);
    expect(error).to.include({ code: 'ERR_PROFILE_UNKNOWN', message: "unknown rule profile 'dvb-t2' (known: stanag4609, tr101290)" });
    expect((error as RulesError).details).to.deep.equal({ profile: 'dvb-t2', known: ['stanag4609', 'tr101290'] });
  });

  it('stanag4609 holds the MISB ST 1402 cadences, the ST 0601 mandatory items and the documented defaults', () => {
    expect(valuesOf(getProfile('stanag4609'))).to.deep.equal({
      'mpegts-errors': { patMaxIntervalMs: 250, pmtMaxIntervalMs: 250, pidMaxGapMs: 5000, pcrMaxIntervalMs: 100, pcrMaxJumpMs: 100, pcrAccuracyNs: 500, ptsMaxIntervalMs: 700 },
      'mpegts-pcr-intervals': { maxIntervalMs: 100 },
      'mpegts-pat-intervals': { maxIntervalMs: 250 },
      'mpegts-pmt-intervals': { maxIntervalMs: 250 },
      'mpegts-pcr-monotonicity': { maxJumpMs: 100 },
      'mpegts-pcr-pts-drift': { minDelayMs: 0, maxDelayMs: 1000 },
      'mpegts-max-pts-intervals': { maxIntervalMs: 700 },
      ...KLV_VALUES,
    });
  });

  it('tr101290 holds the ETSI TR 101 290 V1.4.1 thresholds (PAT and PMT 0.5 s, PCR 100 ms) and the stanag4609 KLV values', () => {
    expect(valuesOf(getProfile('tr101290'))).to.deep.equal({
      'mpegts-errors': { patMaxIntervalMs: 500, pmtMaxIntervalMs: 500, pidMaxGapMs: 5000, pcrMaxIntervalMs: 100, pcrMaxJumpMs: 100, pcrAccuracyNs: 500, ptsMaxIntervalMs: 700 },
      'mpegts-pcr-intervals': { maxIntervalMs: 100 },
      'mpegts-pat-intervals': { maxIntervalMs: 500 },
      'mpegts-pmt-intervals': { maxIntervalMs: 500 },
      'mpegts-pcr-monotonicity': { maxJumpMs: 100 },
      'mpegts-pcr-pts-drift': { minDelayMs: 0, maxDelayMs: 1000 },
      'mpegts-max-pts-intervals': { maxIntervalMs: 700 },
      ...KLV_VALUES,
    });
    expect(getProfile('tr101290').checks['klv-stream-vs-klv-drift']).to.equal(getProfile('stanag4609').checks['klv-stream-vs-klv-drift']);
  });

  it('cite every threshold: a standard and its clause, or no standard and the documented klvscope default', () => {
    for (const profile of listProfiles()) {
      for (const [rule, citation] of Object.entries(citationsOf(profile))) {
        const standard = /MISB ST (0601|1402)|ISO\/IEC 13818-1 2\.\d|ETSI TR 101 290 V1\.4\.1 5\.2\.\d \d\.\d+/.test(citation);
        const documentedDefault = /no standard gives a value|gives no|no value given/.test(citation) && /klvscope default|: 0 ms$|no standard margin: 0 ms/.test(citation);
        expect(standard || documentedDefault, `${profile.name} ${rule}: ${citation}`).to.equal(true);
      }
    }
  });

  it('cite the TR 101 290 indicator of each transport threshold in tr101290', () => {
    const citations = citationsOf(getProfile('tr101290'));
    const indicators = {
      'mpegts-errors.patMaxIntervalMs': '1.3.a PAT_error_2',
      'mpegts-errors.pmtMaxIntervalMs': '1.5.a PMT_error_2',
      'mpegts-errors.pidMaxGapMs': '1.6 PID_error',
      'mpegts-errors.pcrMaxIntervalMs': '2.3a PCR_repetition_error: more than 100 ms',
      'mpegts-errors.pcrMaxJumpMs': '2.3b PCR_discontinuity_indicator_error',
      'mpegts-errors.pcrAccuracyNs': '2.4 PCR_accuracy_error',
      'mpegts-errors.ptsMaxIntervalMs': '2.5 PTS_error',
      'mpegts-pcr-intervals.maxIntervalMs': '2.3a PCR_repetition_error: more than 100 ms',
      'mpegts-pat-intervals.maxIntervalMs': '1.3.a PAT_error_2',
      'mpegts-pmt-intervals.maxIntervalMs': '1.5.a PMT_error_2',
      'mpegts-pcr-monotonicity.maxJumpMs': '2.3b PCR_discontinuity_indicator_error',
      'mpegts-pcr-pts-drift.maxDelayMs': '3.10 Data_delay_error',
      'mpegts-max-pts-intervals.maxIntervalMs': '2.5 PTS_error',
    };
    for (const [rule, indicator] of Object.entries(indicators)) expect(citations[rule], rule).to.include(`ETSI TR 101 290 V1.4.1 5.2.`).and.include(indicator);
    expect(citations['mpegts-pcr-intervals.maxIntervalMs']).to.equal(
      'ETSI TR 101 290 V1.4.1 5.2.2 2.3a PCR_repetition_error: more than 100 ms between consecutive PCRs (TSDuck uses 100 ms too; some test-equipment notes quote 40 ms)',
    );
  });

  it('cite MISB ST 1402 for the stanag4609 table and clock cadences and ST 0601 for the mandatory items', () => {
    const citations = citationsOf(getProfile('stanag4609'));
    for (const rule of ['mpegts-errors.patMaxIntervalMs', 'mpegts-errors.pmtMaxIntervalMs', 'mpegts-errors.pcrMaxIntervalMs', 'mpegts-errors.ptsMaxIntervalMs', 'mpegts-pcr-intervals.maxIntervalMs', 'mpegts-pat-intervals.maxIntervalMs', 'mpegts-pmt-intervals.maxIntervalMs', 'mpegts-max-pts-intervals.maxIntervalMs', 'mpegts-pcr-pts-drift.maxDelayMs']) {
      expect(citations[rule], rule).to.include('MISB ST 1402');
    }
    expect(citations['mpegts-pcr-pts-drift.maxDelayMs']).to.include('synchronous metadata delay at most 1 s');
    expect(citations['klv-mandatory-field-errors.mandatoryTags']).to.equal('MISB ST 0601: items 1 (Checksum), 2 (Precision Time Stamp) and 65 (UAS Datalink LS Version Number) are mandatory in every packet');
  });

  it('are frozen all the way down, so no run can change a value another reads', () => {
    const tags = getProfile('stanag4609').checks['klv-mandatory-field-errors'].mandatoryTags.value as number[];
    expect(() => tags.push(4)).to.throw(TypeError);
    expect(Object.isFrozen(getProfile('tr101290').checks['mpegts-errors'].patMaxIntervalMs)).to.equal(true);
    expect(Object.isFrozen(listProfiles())).to.equal(true);
  });

  it('count an entry without a citation as a problem', () => {
    const uncited: RuleProfile = { name: 'test', title: 'test', summary: 'test', checks: { 'team-check': { limit: cite(3, ' ') } } };
    expect(profileProblems(uncited, [teamCheck])).to.deep.equal(['checks.team-check.limit: no citation']);
  });
});
