import { CheckTester } from '../src/check-tester.js';
import { klvRawDecodeErrors as check } from '../src/klv-raw-decode-errors.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('klv-raw-decode-errors', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: CLEAN_STREAMS,
    invalid: [
      { name: 'klv-truncated@2 (sync KLV)', input: withFault('klv-truncated@2', 'sync'), violations: 'ground-truth' },
    ],
  });
});
