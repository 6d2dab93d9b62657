/**
 * Items repeated in one packet that the standard allows once. The decoder
 * excepts the ST 0601 items marked repeatable in its table: 100 (Segment
 * LS), 101 (Amend LS), 102 (SDCC-FLP) and 115 (Control Command); every
 * other tag seen twice is one violation at its second appearance.
 */
import { defineKlvErrorCheck } from './klv-error-points.js';

export const klvDuplicateTagErrors = defineKlvErrorCheck({
  id: 'klv-duplicate-tag-errors',
  title: 'KLV duplicate tags',
  description: 'One violation per item repeated in a packet, except the items the standard allows to repeat (ST 0601: 100, 101, 102, 115).',
  errorType: 'klv-duplicate-tag',
  scope: 'decoded',
});
