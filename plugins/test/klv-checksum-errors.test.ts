import { CheckTester } from '../src/check-tester.js';
import { klvChecksumErrors as check } from '../src/klv-checksum-errors.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('klv-checksum-errors', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: CLEAN_STREAMS,
    invalid: [
      { name: 'klv-checksum@2 (sync KLV)', input: withFault('klv-checksum@2', 'sync'), violations: 'ground-truth' },
      { name: 'klv-checksum@1.5 (async KLV)', input: withFault('klv-checksum@1.5', 'async'), violations: 'ground-truth' },
    ],
  });
});
