/**
 * Items whose tag the standard of their set does not define (MISB ST 0601
 * defines tags 1-143). One point per item, a warning as the decoder rates
 * it: the item is skipped and the rest of the packet still decodes.
 */
import { defineKlvErrorCheck } from './klv-error-points.js';

export const klvUnknownTagErrors = defineKlvErrorCheck({
  id: 'klv-unknown-tag-errors',
  title: 'KLV unknown tags',
  description: 'One violation (a warning) per item whose tag the standard of its local set does not define (ST 0601: 1-143).',
  errorType: 'klv-unknown-tag',
  scope: 'decoded',
});
