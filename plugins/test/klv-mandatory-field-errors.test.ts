import { CheckTester } from '../src/check-tester.js';
import { klvMandatoryFieldErrors as check } from '../src/klv-mandatory-field-errors.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('klv-mandatory-field-errors', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: CLEAN_STREAMS,
    invalid: [
      { name: 'klv-missing-timestamp@2 (sync KLV)', input: withFault('klv-missing-timestamp@2', 'sync'), violations: 'ground-truth' },
      { name: 'klv-missing-version@2 (async KLV)', input: withFault('klv-missing-version@2', 'async'), violations: 'ground-truth' },
    ],
  });
});
