import { expect } from 'chai';
import { getProfile, printRuleSet, resolveRuleSet } from '../src/index.js';
import { mandatoryFields, miniTeamCheck, pcrIntervals, ptsDrift, tablePositions, teamCheck } from './test-checks.js';

const checks = [pcrIntervals, ptsDrift, mandatoryFields, teamCheck, tablePositions];

describe('printing a rule set', () => {
  it('prints every setting and every rule with where its value comes from', () => {
    const { ruleSet } = resolveRuleSet(checks, {
      profile: 'tr101290',
      shared: { disabledChecks: ['team-check'] },
      checks: { 'mpegts-pcr-pts-drift': { maxDelayMs: 500 }, 'team-check': { limit: 9 } },
    });
    expect(printRuleSet(ruleSet, checks)).to.equal(
      [
        'profile: tr101290 — ETSI TR 101 290 V1.4.1 (2020-06) measurement guidelines',
        'each value: check default < profile < user value, with its source',
        '',
        'shared',
        '  maxPointsPerCheck = 10000    # default: points kept per check and run; the summary counts them all',
        '  disabledChecks = ["team-check"]    # user value (default []): registered checks that do not run',
        '',
        'mpegts-pcr-intervals: PCR intervals',
        '  maxIntervalMs = 100    # ETSI TR 101 290 V1.4.1 5.2.2 2.3a PCR_repetition_error: more than 100 ms between consecutive PCRs (TSDuck uses 100 ms too; some test-equipment notes quote 40 ms)',
        '',
        'mpegts-pcr-pts-drift: PCR/PTS drift',
        '  minDelayMs = 0    # ETSI TR 101 290 V1.4.1 gives no lower bound; ISO/IEC 13818-1 2.4.2 (T-STD): a PTS already past on arrival cannot be presented: 0 ms',
        '  maxDelayMs = 500    # user value; profile tr101290: 1000 (ETSI TR 101 290 V1.4.1 5.2.3 3.10 Data_delay_error: delay through the T-STD buffers above 1 s (still pictures excepted))',
        '  windowS = 10    # check default: averaging window, s',
        '',
        'klv-mandatory-field-errors: Mandatory items',
        '  mandatoryTags = [1,2,65]    # MISB ST 0601: items 1 (Checksum), 2 (Precision Time Stamp) and 65 (UAS Datalink LS Version Number) are mandatory in every packet',
        '',
        'team-check: A team check  (disabled)',
        '  limit = 9    # user value; check default 7',
        '  label = "x"    # check default',
        '  mode = "fast"    # check default',
        '',
        'mpegts-psi-table-positions: PSI table positions  (no rules)',
      ].join('\n'),
    );
  });

  it('cites the profile it is given, and marks a check that is not registered', () => {
    const { ruleSet } = resolveRuleSet([pcrIntervals, teamCheck], { shared: { maxPointsPerCheck: 20 } });
    expect(printRuleSet(ruleSet, [pcrIntervals], getProfile('tr101290'))).to.equal(
      [
        'profile: tr101290 — ETSI TR 101 290 V1.4.1 (2020-06) measurement guidelines',
        'each value: check default < profile < user value, with its source',
        '',
        'shared',
        '  maxPointsPerCheck = 20    # user value (default 10000): points kept per check and run; the summary counts them all',
        '  disabledChecks = []    # default: registered checks that do not run',
        '',
        'mpegts-pcr-intervals: PCR intervals',
        '  maxIntervalMs = 100    # ETSI TR 101 290 V1.4.1 5.2.2 2.3a PCR_repetition_error: more than 100 ms between consecutive PCRs (TSDuck uses 100 ms too; some test-equipment notes quote 40 ms)',
        '',
        'team-check  (not registered)',
        '  limit = 7',
        '  label = "x"',
        '  mode = "fast"',
      ].join('\n'),
    );
  });

  it('prints the descriptions of a slice built with zod/mini as of one built with zod', () => {
    const { ruleSet } = resolveRuleSet([miniTeamCheck, teamCheck], { checks: { 'team-mini-check': { high: 9 } } });
    expect(printRuleSet(ruleSet, [miniTeamCheck, teamCheck]).split('\n').slice(7)).to.deep.equal([
      'team-mini-check: A zod/mini team check',
      '  low = 1    # check default: lower bound',
      '  high = 9    # user value; check default null',
      '  label = "x"    # check default: a label, described outside its default',
      '  mode = "fast"    # check default',
      '',
      'team-check: A team check',
      '  limit = 7    # check default: how many',
      '  label = "x"    # check default',
      '  mode = "fast"    # check default',
    ]);
  });

  it('says when a user value replaces a profile value, and which', () => {
    const { ruleSet } = resolveRuleSet([pcrIntervals], { checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 40 } } });
    expect(printRuleSet(ruleSet, [pcrIntervals]).split('\n').at(-1)).to.equal(
      '  maxIntervalMs = 40    # user value; profile stanag4609: 100 (MISB ST 1402; ISO/IEC 13818-1 2.7.2: a PCR at least every 100 ms)',
    );
  });
});
