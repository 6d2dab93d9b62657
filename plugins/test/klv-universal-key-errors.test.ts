import { CheckTester } from '../src/check-tester.js';
import { klvUniversalKeyErrors as check } from '../src/klv-universal-key-errors.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('klv-universal-key-errors', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: CLEAN_STREAMS,
    invalid: [
      { name: 'klv-wrong-key@2 (sync KLV)', input: withFault('klv-wrong-key@2', 'sync'), violations: 'ground-truth' },
    ],
  });
});
