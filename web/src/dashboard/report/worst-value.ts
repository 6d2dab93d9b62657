/**
 * A check's worst value, from the value statistics of its summary: the
 * extreme farthest from zero, with its unit. The checks' values are
 * intervals (the longest is the worst), drifts (the largest either way) and
 * steps (a step backwards is negative): in each, the extreme farthest from
 * zero is the one to look at. The table's tooltip gives min, mean and max.
 */
import type { ValueStatistics } from '@klvscope/core/browser';
import { formatPointValue } from '../check-view/point-value-format.js';

export function worstValue(value: ValueStatistics | null): number | null {
  if (value === null || value.count === 0) return null;
  return Math.abs(value.min) > Math.abs(value.max) ? value.min : value.max;
}

/** In the pages' one quantity format, with the unit (`237.632 ms`); a dash when there is none. */
export function formatWorstValue(value: ValueStatistics | null): string {
  return formatPointValue(worstValue(value), value?.unit);
}
