/**
 * MISB ST 0601 item 1: the checksum does not equal the running 16-bit sum
 * over the bytes as received (from the first byte of the key through item
 * 1's length). One violation per packet. The point has no value: a checksum
 * is a code, not a measure (a mean of checksums means nothing); the message
 * gives the stored and the computed one.
 */
import { defineKlvErrorCheck } from './klv-error-points.js';

export const klvChecksumErrors = defineKlvErrorCheck({
  id: 'klv-checksum-errors',
  title: 'KLV checksum errors',
  description: 'One violation per ST 0601 packet whose item 1 does not equal the running 16-bit sum over the bytes as received; the message gives both values.',
  errorType: 'klv-checksum-error',
  scope: 'st0601',
});
