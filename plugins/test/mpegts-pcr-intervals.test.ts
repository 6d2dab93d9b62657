import { CheckTester } from '../src/check-tester.js';
import { mpegtsPcrIntervals as check } from '../src/mpegts-pcr-intervals.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('mpegts-pcr-intervals', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: CLEAN_STREAMS,
    invalid: [
      { name: 'pcr-gap@2', input: withFault('pcr-gap@2'), violations: 'ground-truth' },
    ],
  });
});
