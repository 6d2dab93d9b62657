/**
 * The drift check's points held back for the onset search (up to two
 * minutes of packets), kept as columns of numbers: an object per held
 * point would live long enough to be promoted to the old generation, and
 * holding them cost more than all the rest of the check. Points are known by
 * a sequence number, in order; a point stays a plain drift point, a point of
 * its series (`ctx.measure`), unless it is marked (a violation, an
 * unmeasured packet), which gives it its own message.
 */
import type { CheckContext, PointPosition, PointSeries } from '@klvscope/core';

export type DriftPointType = 'klv-drift' | 'klv-drift-unmeasured' | 'klv-drift-excursion' | 'klv-drift-beyond-limit';

const INITIAL_CAPACITY = 256;

export class DriftPointLog {
  private t = new Float64Array(INITIAL_CAPACITY);
  private offset = new Float64Array(INITIAL_CAPACITY);
  private packetIndex = new Float64Array(INITIAL_CAPACITY);
  /** Stream time elapsed since the series' origin, s (the onset fit's x); NaN when unmeasured. */
  private elapsed = new Float64Array(INITIAL_CAPACITY);
  /** The drift in ms; NaN when unmeasured. */
  private drift = new Float64Array(INITIAL_CAPACITY);
  private klvIndex = new Float64Array(INITIAL_CAPACITY);
  /** The messages and types of marked points, by sequence number. */
  private readonly marks = new Map<number, { type: DriftPointType; message: string }>();
  /** Sequence number stored in slot 0. */
  private base = 0;
  /** Sequence number of the oldest point not yet released. */
  private oldest = 0;
  /** Sequence number the next point gets. */
  next = 0;

  constructor(
    private readonly ctx: CheckContext<unknown>,
    private readonly pid: number,
    private readonly citation: string,
    /** The series of the unmarked points, read when one is released (the series learns its clock on its first packet). */
    private readonly withinLimit: () => PointSeries,
  ) {}

  /** Holds a point and returns its sequence number. `driftMs` and `elapsedS` are NaN for a point that measures nothing, which must be marked. */
  hold(at: PointPosition, elapsedS: number, driftMs: number, klvIndex: number): number {
    if (this.next - this.base === this.t.length) this.makeRoom();
    const slot = this.next - this.base;
    this.t[slot] = at.t ?? NaN;
    this.offset[slot] = at.offset;
    this.packetIndex[slot] = at.packetIndex;
    this.elapsed[slot] = elapsedS;
    this.drift[slot] = driftMs;
    this.klvIndex[slot] = klvIndex;
    return this.next++;
  }

  /** Gives a held point its own type and message. */
  mark(sequence: number, type: DriftPointType, message: string): void {
    this.marks.set(sequence, { type, message });
  }

  elapsedOf(sequence: number): number {
    return this.elapsed[sequence - this.base];
  }

  driftOf(sequence: number): number {
    return this.drift[sequence - this.base];
  }

  klvIndexOf(sequence: number): number {
    return this.klvIndex[sequence - this.base];
  }

  /** Emits, in order, every held point before this sequence number. */
  releaseBefore(sequence: number): void {
    const end = Math.min(sequence, this.next);
    for (; this.oldest < end; this.oldest++) this.release(this.oldest);
  }

  releaseAll(): void {
    this.releaseBefore(this.next);
  }

  private release(sequence: number): void {
    const slot = sequence - this.base;
    const t = this.t[slot];
    const at = { t: Number.isNaN(t) ? null : t, offset: this.offset[slot], packetIndex: this.packetIndex[slot], pid: this.pid };
    const drift = this.drift[slot];
    // Most points carry no mark: skip the lookup then.
    const mark = this.marks.size === 0 ? undefined : this.marks.get(sequence);
    if (mark === undefined) {
      this.ctx.measure(at, drift, this.withinLimit());
      return;
    }
    this.marks.delete(sequence);
    const measured = !Number.isNaN(drift);
    this.ctx.point(at, {
      message: mark.message,
      value: measured ? drift : null,
      unit: measured ? 'ms' : null,
      violation: mark.type === 'klv-drift-excursion',
      severity: mark.type === 'klv-drift-excursion' ? 'error' : 'info',
      citation: this.citation,
      type: mark.type,
    });
  }

  /** Drops the released slots, or doubles the columns when most are still held. */
  private makeRoom(): void {
    const held = this.next - this.oldest;
    const from = this.oldest - this.base;
    const capacity = held * 2 > this.t.length ? this.t.length * 2 : this.t.length;
    const move = (column: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> => {
      if (capacity === column.length) {
        column.copyWithin(0, from, from + held);
        return column;
      }
      const grown = new Float64Array(capacity);
      grown.set(column.subarray(from, from + held));
      return grown;
    };
    this.t = move(this.t);
    this.offset = move(this.offset);
    this.packetIndex = move(this.packetIndex);
    this.elapsed = move(this.elapsed);
    this.drift = move(this.drift);
    this.klvIndex = move(this.klvIndex);
    this.base = this.oldest;
  }
}
