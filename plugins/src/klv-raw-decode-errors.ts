/**
 * Bytes in a KLV stream that are not KLV (SMPTE ST 336 framing; MISB ST
 * 1402 carriage): no universal label where a key should start, an
 * impossible BER length, a packet cut short by the end of its metadata
 * access unit, its PES, a lost TS packet or the data. One violation per
 * stretch; its value is the number of bytes skipped, when the decoder knows it.
 */
import { defineKlvErrorCheck } from './klv-error-points.js';

export const klvRawDecodeErrors = defineKlvErrorCheck({
  id: 'klv-raw-decode-errors',
  title: 'KLV raw decode errors',
  description:
    'One violation per stretch of bytes in a KLV stream that is not KLV: no universal label, an impossible BER length, a packet cut short. Value: the bytes skipped, when known.',
  errorType: 'klv-raw-decode-error',
  scope: 'klv',
  measure: (obs) => (typeof obs.details?.bytes === 'number' ? { value: obs.details.bytes, unit: 'bytes' } : null),
});
