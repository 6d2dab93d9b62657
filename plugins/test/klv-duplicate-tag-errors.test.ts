import { CheckTester } from '../src/check-tester.js';
import { klvDuplicateTagErrors as check } from '../src/klv-duplicate-tag-errors.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('klv-duplicate-tag-errors', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: CLEAN_STREAMS,
    invalid: [
      { name: 'klv-duplicate-tag@2 (sync KLV)', input: withFault('klv-duplicate-tag@2', 'sync'), violations: 'ground-truth' },
    ],
  });
});
