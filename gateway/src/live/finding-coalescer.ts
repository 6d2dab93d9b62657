/**
 * Folds a live session's repeated findings into records, so that a broken
 * feed (a finding per packet, thousands a second) costs a few records a
 * second rather than one per occurrence. Findings are alike when they have
 * the same check, PID, kind (`type`) and severity and arrive in the same
 * second of the wall clock. The first of them is published at once, as it
 * is (a single fault reads as before, at its packet); the rest of that
 * second become one record when the second ends, carrying their number
 * (`count`), the position of the first of them and the arrival of the last.
 * So a kind of finding gives at most two records a second (and one more per
 * silence of the feed within it, when the repeats so far are published), and
 * the counts of the records add up to the findings exactly.
 *
 * Noise reads as packets of every PID, so the kinds of a second are bounded
 * too: past MAX_KINDS_PER_SECOND, a new kind's occurrences go into one record
 * per check, type and severity with PID -2 (OTHER_PIDS), published when
 * the second ends. A second gives at most 2 x MAX_KINDS_PER_SECOND records
 * plus one per check, type and severity.
 */
import type { Point } from '@klvscope/core';

/** Kinds (check, PID, type, severity) followed one by one within a second. */
export const MAX_KINDS_PER_SECOND = 128;

/** The PID of a record of the kinds past MAX_KINDS_PER_SECOND (-1 is already a finding of no PID). */
export const OTHER_PIDS = -2;

/** What becomes a record: a check's point (or a source event) and the occurrences it stands for. */
export interface CoalescedFinding {
  checkId: string;
  point: Point;
  /** Occurrences this record stands for: 1 for the first of its second. */
  count: number;
  /** Arrival of the bytes that revealed the first of them; null when no byte did. */
  receivedAt: number | null;
  /** Arrival of the last of them. */
  lastReceivedAt: number | null;
  /** The record of the first occurrence in the same second, for the rest of that second. */
  repeatOf: number | null;
}

interface OpenKind {
  /** The sequence number of the record published for the first occurrence; null for the kinds past the limit. */
  firstSeq: number | null;
  rest: CoalescedFinding | null;
}

export class FindingCoalescer {
  /** The wall-clock second (ms / 1000, floored) the open kinds belong to. */
  private second = Number.NEGATIVE_INFINITY;
  private readonly open = new Map<string, OpenKind>();
  /** Kinds past MAX_KINDS_PER_SECOND, by check, type and severity. */
  private readonly others = new Map<string, OpenKind>();

  /** `publish` makes the record and answers its sequence number. */
  constructor(private readonly publish: (finding: CoalescedFinding) => number) {}


  /** One occurrence, arrived at `atMs` (its bytes' arrival, or now when none). */
  add(checkId: string, point: Point, atMs: number, receivedAt: number | null): void {
    this.closePast(atMs);
    const kindOfPid = `${checkId}\u0000${point.type ?? ''}\u0000${point.severity}`;
    const key = `${point.pid}\u0000${kindOfPid}`;
    let kind = this.open.get(key);
    if (kind === undefined && this.open.size >= MAX_KINDS_PER_SECOND) {
      kind = this.others.get(kindOfPid);
      if (kind === undefined) this.others.set(kindOfPid, (kind = { firstSeq: null, rest: null }));
      point = { ...point, pid: OTHER_PIDS };
    }
    if (kind === undefined) {
      const firstSeq = this.publish({ checkId, point, count: 1, receivedAt, lastReceivedAt: receivedAt, repeatOf: null });
      this.open.set(key, { firstSeq, rest: null });
    } else if (kind.rest === null) {
      kind.rest = { checkId, point, count: 1, receivedAt, lastReceivedAt: receivedAt, repeatOf: kind.firstSeq };
    } else {
      kind.rest.count++;
      kind.rest.lastReceivedAt = receivedAt;
    }
  }

  /**
   * Ends the open second once the arrivals have left it (the session calls
   * this with each chunk's arrival). An arrival from an earlier second (one
   * without bytes, stamped now, came first) counts in the open one.
   */
  closePast(atMs: number): void {
    const second = Math.floor(atMs / 1_000);
    if (second <= this.second) return;
    this.close();
    this.second = second;
  }

  /**
   * Publishes the repeats held so far (the feed went silent), keeping the
   * open second's kinds: a long pause of the event loop can look like
   * silence while the second goes on, and its kinds stay bounded.
   */
  publishRepeats(): void {
    for (const kind of [...this.open.values(), ...this.others.values()]) {
      if (kind.rest === null) continue;
      this.publish(kind.rest);
      kind.rest = null;
    }
  }

  /** Publishes the repeats of the open second and forgets it. */
  close(): void {
    for (const kind of [...this.open.values(), ...this.others.values()]) if (kind.rest !== null) this.publish(kind.rest);
    this.open.clear();
    this.others.clear();
  }
}
