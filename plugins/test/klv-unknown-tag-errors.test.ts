import { CheckTester } from '../src/check-tester.js';
import { klvUnknownTagErrors as check } from '../src/klv-unknown-tag-errors.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('klv-unknown-tag-errors', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: CLEAN_STREAMS,
    invalid: [
      { name: 'klv-unknown-tag@2 (sync KLV)', input: withFault('klv-unknown-tag@2', 'sync'), violations: 'ground-truth' },
    ],
  });
});
