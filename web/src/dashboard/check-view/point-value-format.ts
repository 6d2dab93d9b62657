/** A point's value as the check page writes it: the pages' one quantity format (shared/quantity-format.ts). */
export { formatQuantity as formatPointValue } from '../../shared/quantity-format.js';
