import { CheckTester } from '../src/check-tester.js';
import { mpegtsPatIntervals as check } from '../src/mpegts-pat-intervals.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('mpegts-pat-intervals', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: CLEAN_STREAMS,
    invalid: [
      { name: 'pat-gap@2', input: withFault('pat-gap@2'), violations: 'ground-truth' },
    ],
  });
});
