/**
 * The most severe points of a check, kept as they are emitted: the first
 * `count` of each severity, so that an error coming after many warnings is
 * still among them (keeping the first points of any severity and sorting
 * them at the end would lose it).
 */
import type { Point } from '../kernel/check-point.js';
import { SEVERITY_RANK } from '../kernel/observations.js';

export class MostSevere {
  /** By severity rank (info, warning, error), each in emission order. */
  private readonly bySeverity: Point[][] = [[], [], []];

  constructor(private readonly count: number) {}

  add(point: Point): void {
    const kept = this.bySeverity[SEVERITY_RANK[point.severity]];
    if (kept.length < this.count) kept.push(point);
  }

  /** The `count` most severe, in emission order among equals. */
  points(): Point[] {
    return [...this.bySeverity[2], ...this.bySeverity[1], ...this.bySeverity[0]].slice(0, this.count);
  }
}
