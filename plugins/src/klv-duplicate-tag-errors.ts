/** Items repeated in a packet that MISB ST 0601 does not allow to repeat (the decoder excepts the repeatable ones). */
import { defineKlvErrorCheck } from './klv-error-points.js';

export const klvDuplicateTagErrors = defineKlvErrorCheck({
  id: 'klv-duplicate-tag-errors',
  title: 'KLV duplicate tags',
  description: 'One violation per item repeated in a packet, except the items the standard allows to repeat.',
  errorType: 'klv-duplicate-tag',
});
