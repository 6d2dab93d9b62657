/** Bytes in a KLV stream that are not KLV (SMPTE ST 336 framing). */
import { defineKlvErrorCheck } from './klv-error-points.js';

export const klvRawDecodeErrors = defineKlvErrorCheck({
  id: 'klv-raw-decode-errors',
  title: 'KLV raw decode errors',
  description: 'One violation per stretch of bytes in a KLV stream that is not KLV: no universal label, an impossible BER length, a packet cut short.',
  errorType: 'klv-raw-decode-error',
});
