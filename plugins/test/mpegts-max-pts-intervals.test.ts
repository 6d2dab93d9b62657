import { CheckTester } from '../src/check-tester.js';
import { mpegtsMaxPtsIntervals as check } from '../src/mpegts-max-pts-intervals.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('mpegts-max-pts-intervals', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: CLEAN_STREAMS,
    invalid: [
      { name: 'pts-gap@2', input: withFault('pts-gap@2'), violations: 'ground-truth' },
    ],
  });
});
