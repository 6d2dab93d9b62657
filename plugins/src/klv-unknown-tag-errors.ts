/** Items whose tag MISB ST 0601 does not define. */
import { defineKlvErrorCheck } from './klv-error-points.js';

export const klvUnknownTagErrors = defineKlvErrorCheck({
  id: 'klv-unknown-tag-errors',
  title: 'KLV unknown tags',
  description: 'One violation per item whose tag ST 0601 does not define.',
  errorType: 'klv-unknown-tag',
});
