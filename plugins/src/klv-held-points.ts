/**
 * Points held back before they are emitted, in order, so that a check can
 * still change one once it knows more: the rate check places a jitter
 * episode's one violation at its worst interval (holding points only while
 * an episode is open; the drift check, which holds every point for minutes,
 * keeps numbers instead: klv-drift-log.ts). Only the position fields of an
 * observation are copied, so holding a point never holds packet bytes.
 */
import type { CheckContext, PointFinding, PointPosition } from '@klvscope/core';

export interface HeldPoint {
  readonly at: PointPosition;
  /** Mutable until released. */
  finding: PointFinding;
}

export class HeldPoints {
  private queue: HeldPoint[] = [];
  /** Index in `queue` of the oldest point not yet released. */
  private head = 0;

  constructor(private readonly ctx: CheckContext<unknown>) {}

  /** Holds a point; the returned handle may be changed until the point is released. */
  hold(at: PointPosition, finding: PointFinding): HeldPoint {
    const point: HeldPoint = { at: { t: at.t, offset: at.offset, packetIndex: at.packetIndex, pid: at.pid }, finding };
    this.queue.push(point);
    return point;
  }

  /** Points held and not yet released. */
  get size(): number {
    return this.queue.length - this.head;
  }

  /** The oldest point still held, if any. */
  get oldest(): HeldPoint | undefined {
    return this.queue[this.head];
  }

  /** Emits the oldest held point. */
  releaseOldest(): void {
    const point = this.queue[this.head];
    if (point === undefined) return;
    this.ctx.point(point.at, point.finding);
    this.head++;
    // Drop the released prefix now and then, so the array does not grow for ever.
    if (this.head >= 1024 && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  /** Emits every held point, oldest first. */
  releaseAll(): void {
    while (this.size > 0) this.releaseOldest();
  }
}
