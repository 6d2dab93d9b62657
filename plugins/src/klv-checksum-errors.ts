/** MISB ST 0601 item 1: the checksum does not match the bytes as received. */
import { defineKlvErrorCheck } from './klv-error-points.js';

export const klvChecksumErrors = defineKlvErrorCheck({
  id: 'klv-checksum-errors',
  title: 'KLV checksum errors',
  description: 'One violation per ST 0601 packet whose item 1 does not equal the running 16-bit sum over the bytes as received.',
  errorType: 'klv-checksum-error',
});
