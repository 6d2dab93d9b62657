/**
 * One live session on a probe: the live session of a single node
 * (live-session.ts), its records handed to the probe's outbox as they are
 * published (a finding of severity error or warning written at once, for
 * the hub's clients to see it within a fraction of a second), its state with each
 * statistics reading and each change of status. The session's id stays
 * the same when a restarted probe resumes it; `run` counts the starts, and
 * the records' `seq` starts again at 1 in each run.
 */
import { frameKlvValues } from '@klvscope/core/browser';
import type { ProbeSessionRow } from '@klvscope/adapters/postgres';
import type { LiveSessionOptions } from '../live/live-session.js';
import { LiveSession } from '../live/live-session.js';
import type { ProbeOutbox } from './probe-outbox.js';
import type { TrackPoint } from './probe-records.js';

export interface ProbeSessionOptions extends Omit<LiveSessionOptions, 'onStatus' | 'onUnsaved'> {
  probe: string;
  run: number;
  createdMs: number;
  outbox: ProbeOutbox;
}

export class ProbeSession {
  readonly live: LiveSession;
  private readonly followers: Promise<void>[];

  constructor(private readonly options: ProbeSessionOptions) {
    this.live = new LiveSession({
      ...options,
      onStatus: () => this.writeState(),
      // The outbox takes the records from the logs: what the single node keeps for its database is let go.
      onUnsaved: (session) => void session.takeUnsaved(),
    });
    this.followers = [this.followFindings(), this.followStatistics(), this.followTrack()];
    this.writeState();
  }

  get id(): string {
    return this.live.id;
  }

  get source(): string {
    return this.options.source.url;
  }

  /** Ends the session; its last records and its final state go to the outbox. */
  async stop(status: 'stopped' | 'interrupted'): Promise<void> {
    await this.live.stop(status);
    await Promise.all(this.followers);
    this.writeState();
  }

  row(): ProbeSessionRow {
    const state = this.live.state();
    return {
      id: this.id,
      probe: this.options.probe,
      source: state.source,
      status: state.status,
      run: this.options.run,
      createdMs: this.options.createdMs,
      updatedMs: Date.parse(state.updatedAt),
      stoppedMs: state.stoppedAt === null ? null : Date.parse(state.stoppedAt),
      state,
    };
  }

  private writeState(): void {
    this.options.outbox.setSession(this.row());
  }

  private key(seq: number): { sessionId: string; run: number; seq: number } {
    return { sessionId: this.id, run: this.options.run, seq };
  }

  private async followFindings(): Promise<void> {
    for await (const finding of this.live.findings.follow(0)) {
      this.options.outbox.add('findings', { ...this.key(finding.seq), checkId: finding.checkId, severity: finding.severity, body: JSON.stringify(finding) }, finding.severity !== 'info');
    }
  }

  private async followStatistics(): Promise<void> {
    for await (const reading of this.live.statistics.follow(0)) {
      this.options.outbox.add('statistics', { ...this.key(reading.seq), body: JSON.stringify(reading) });
      this.writeState();
    }
  }

  private async followTrack(): Promise<void> {
    for await (const packet of this.live.metadata.follow(0)) {
      const point: TrackPoint = { seq: packet.seq, sessionId: this.id, pid: packet.pid, receivedAt: packet.receivedAt, values: frameKlvValues(packet.items) };
      this.options.outbox.add('track', { ...this.key(packet.seq), body: JSON.stringify(point) });
    }
  }
}
