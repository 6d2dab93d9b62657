import { CheckTester } from '../src/check-tester.js';
import { mpegtsPcrMonotonicity as check } from '../src/mpegts-pcr-monotonicity.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('mpegts-pcr-monotonicity', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: CLEAN_STREAMS,
    invalid: [
      { name: 'pcr-jump-backward@2', input: withFault('pcr-jump-backward@2'), violations: 'ground-truth' },
      { name: 'pcr-jump-forward@2', input: withFault('pcr-jump-forward@2'), violations: 'ground-truth' },
    ],
  });
});
