import { CheckTester } from '../src/check-tester.js';
import { klvTimestampMonotonicity as check } from '../src/klv-timestamp-monotonicity.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('klv-timestamp-monotonicity', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: CLEAN_STREAMS,
    invalid: [
      { name: 'klv-timestamp-reversal@2 (sync KLV)', input: withFault('klv-timestamp-reversal@2', 'sync'), violations: 'ground-truth' },
      { name: 'klv-timestamp-reversal@1.5 (async KLV)', input: withFault('klv-timestamp-reversal@1.5', 'async'), violations: 'ground-truth' },
    ],
  });
});
