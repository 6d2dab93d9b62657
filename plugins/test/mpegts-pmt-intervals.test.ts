import { CheckTester } from '../src/check-tester.js';
import { mpegtsPmtIntervals as check } from '../src/mpegts-pmt-intervals.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('mpegts-pmt-intervals', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: CLEAN_STREAMS,
    invalid: [
      { name: 'pmt-gap@2', input: withFault('pmt-gap@2'), violations: 'ground-truth' },
    ],
  });
});
