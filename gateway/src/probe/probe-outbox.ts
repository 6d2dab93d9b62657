/**
 * What a probe has published and the catalog has not yet received: its
 * sessions' findings, statistics and track points, and their states. They
 * are written in batches every FLUSH_MS, and at once for a finding of
 * severity error or warning (a write asked for while one runs follows it,
 * so a flood of findings makes back-to-back batches, not one each). While the database cannot be reached the outbox keeps
 * them, up to `limitBytes` (the JSON of the records; docs/fleet.md), and
 * delivers them in order once it is back. Past the bound it drops the
 * oldest track points first, then statistics, then findings, and counts
 * what it dropped by kind (the heartbeat reports the counts).
 */
import type { ProbeBatch, ProbeEventRow, ProbeSessionRow } from '@klvscope/adapters/postgres';

/** How often the outbox writes what it holds (the issue asks for at least once a second). */
export const FLUSH_MS = 250;

/** Records in one batch at most: a backlog after an outage goes in several transactions, none too long. */
const MAX_BATCH_ROWS = 5_000;

/** The default bound of what a probe holds for an unreachable database. */
export const DEFAULT_OUTBOX_LIMIT_BYTES = 64 * 1024 * 1024;

type Kind = 'findings' | 'statistics' | 'track';

/** Dropped first when the bound is reached: positions before readings before findings. */
const DROP_ORDER: readonly Kind[] = ['track', 'statistics', 'findings'];

export interface ProbeOutboxOptions {
  limitBytes: number;
  write: (batch: ProbeBatch) => Promise<void>;
  /** Told when a write fails (once per outage) and when one succeeds again. */
  onDeliveryChange?: (failing: boolean, error?: unknown) => void;
}

export class ProbeOutbox {
  private readonly queues: Record<Kind, ProbeEventRow[]> = { findings: [], statistics: [], track: [] };
  private readonly sessions = new Map<string, ProbeSessionRow>();
  private queuedBytes = 0;
  private inFlightBytes = 0;
  private writing: Promise<void> | null = null;
  private again = false;
  private failing = false;
  private readonly timer: NodeJS.Timeout;
  readonly dropped: Record<Kind, number> = { findings: 0, statistics: 0, track: 0 };

  constructor(private readonly options: ProbeOutboxOptions) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /** What the outbox holds: queued and being written. */
  get bufferedBytes(): number {
    return this.queuedBytes + this.inFlightBytes;
  }

  get isDelivering(): boolean {
    return !this.failing;
  }

  add(kind: Kind, row: ProbeEventRow, urgent = false): void {
    this.queues[kind].push(row);
    this.queuedBytes += sizeOf(row);
    this.enforceBound();
    if (urgent) void this.flush();
  }

  /** The session's latest state replaces any not yet written. */
  setSession(row: ProbeSessionRow): void {
    this.sessions.set(row.id, row);
  }

  /** Writes what is queued; a flush asked for while one runs follows it. Resolves when the queue is written or the write failed. */
  flush(): Promise<void> {
    if (this.writing) {
      this.again = true;
      return this.writing;
    }
    this.writing = this.writeAll().finally(() => {
      this.writing = null;
    });
    return this.writing;
  }

  /** Stops the timer and tries a last time to write everything (bounded by `timeoutMs`). */
  async close(timeoutMs: number): Promise<void> {
    clearInterval(this.timer);
    const deadline = Date.now() + timeoutMs;
    while (this.hasWork() && Date.now() < deadline) {
      await this.flush();
      if (this.failing) await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  private hasWork(): boolean {
    return this.sessions.size > 0 || this.queues.findings.length + this.queues.statistics.length + this.queues.track.length > 0;
  }

  private async writeAll(): Promise<void> {
    do {
      this.again = false;
      if (!this.hasWork()) return;
      const batch = this.take();
      try {
        await this.options.write(batch);
        this.inFlightBytes = 0;
        if (this.failing) {
          this.failing = false;
          this.options.onDeliveryChange?.(false);
        }
      } catch (error) {
        this.putBack(batch);
        if (!this.failing) {
          this.failing = true;
          this.options.onDeliveryChange?.(true, error);
        }
        return;
      }
    } while (this.again || this.queues.findings.length + this.queues.statistics.length + this.queues.track.length > 0);
  }

  private take(): ProbeBatch & { sessions: ProbeSessionRow[] } {
    let budget = MAX_BATCH_ROWS;
    const takeFrom = (kind: Kind): ProbeEventRow[] => {
      const rows = this.queues[kind].splice(0, budget);
      budget -= rows.length;
      return rows;
    };
    // Findings first: they are what an operator waits for.
    const batch = { findings: takeFrom('findings'), statistics: takeFrom('statistics'), track: takeFrom('track'), sessions: [...this.sessions.values()] };
    this.sessions.clear();
    const bytes = [...batch.findings, ...batch.statistics, ...batch.track].reduce((sum, row) => sum + sizeOf(row), 0);
    this.queuedBytes -= bytes;
    this.inFlightBytes = bytes;
    return batch;
  }

  /** A batch not written goes back in front of what came since; a session state written since wins. */
  private putBack(batch: ProbeBatch): void {
    for (const kind of DROP_ORDER) this.queues[kind].unshift(...batch[kind]);
    for (const row of batch.sessions) if (!this.sessions.has(row.id)) this.sessions.set(row.id, row);
    this.queuedBytes += this.inFlightBytes;
    this.inFlightBytes = 0;
    this.enforceBound();
  }

  private enforceBound(): void {
    for (const kind of DROP_ORDER) {
      const queue = this.queues[kind];
      let drop = 0;
      while (this.queuedBytes + this.inFlightBytes > this.options.limitBytes && drop < queue.length) {
        this.queuedBytes -= sizeOf(queue[drop]);
        drop++;
      }
      if (drop > 0) {
        queue.splice(0, drop);
        this.dropped[kind] += drop;
      }
    }
  }
}

/** A record's weight: its JSON and its keys, about what it holds in memory and in the batch. */
function sizeOf(row: ProbeEventRow): number {
  return row.body.length + row.sessionId.length + 32;
}
