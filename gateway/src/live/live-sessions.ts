/**
 * The live sessions of the inspection service: at most one active at a
 * time. Each is kept in the catalog (kind 'live', its state as JSON,
 * written when its status changes) and has its own database of findings and
 * metadata packets (live-session-database.ts), written every
 * `persistSeconds` and when it ends, so a crash loses at most that much.
 * A session left active by a process that ended is marked 'interrupted'.
 */
import { randomUUID } from 'node:crypto';
import { type AnyCheck, type Logger } from '@klvscope/core';
import { getSession, listSessions, putSession, touchRecentSource, type LiveRowPage, type LiveSessionDatabase, type SessionRow, type Store } from '@klvscope/core/store';
import { WorkflowError } from '@klvscope/core/workflow';
import { isSerialSourceUrl, type LiveSource } from '@klvscope/adapters';
import type { LiveFinding, LiveMetadataPacket, LiveSessionState, LiveSessionStatus } from './live-records.js';
import { LiveSession } from './live-session.js';
import { Waiters } from './waiters.js';

/**
 * What a live session's database keeps (docs/live.md, retention): the latest
 * 20,000 finding records, none published more than 24 hours ago, and the
 * latest 20,000 metadata packets (on disk, in parts: up to a part more).
 * A second gives at most about 280 records (finding-coalescer.ts), so even
 * a feed of noise keeps its last minutes; a feed with a few kinds of
 * trouble keeps hours. The counters count everything.
 */
export const LIVE_RETENTION = { findings: 20_000, findingsMaxAgeMs: 24 * 3_600_000, metadata: 20_000 } as const;

/** The statuses of a session not yet ended ('stopped', 'replaced', 'failed' and 'interrupted' end one). */
const RUNNING_STATUSES: readonly LiveSessionStatus[] = ['waiting', 'receiving', 'no-data'];

export interface LiveSessionsOptions {
  store: Store;
  /** Opens a source URL (the adapters); errors reach the client as they are. */
  openSource: (url: string) => Promise<LiveSource>;
  /** The checks to run and their rule slices, as of now. */
  checkRun: () => { checks: readonly AnyCheck[]; rules: Readonly<Record<string, unknown>> };
  settings: () => { noDataSeconds: number; persistSeconds: number };
  log: Logger;
}

export class LiveSessions {
  private current: LiveSession | null = null;
  private database: LiveSessionDatabase | null = null;
  private persistTimer: NodeJS.Timeout | null = null;
  /** Saves run one after another: a save never overlaps the next. */
  private saving: Promise<void> = Promise.resolve();
  private readonly started = new Waiters();

  constructor(private readonly options: LiveSessionsOptions) {
    const db = options.store.catalog.db;
    for (const row of listSessions(db, { kind: 'live', statuses: RUNNING_STATUSES })) {
      const state = row.state as LiveSessionState;
      putSession(db, { ...row, status: 'interrupted', state: { ...state, status: 'interrupted' } });
    }
  }

  /** The active live session, or null. */
  active(): LiveSession | null {
    return this.current?.isActive ? this.current : null;
  }

  /** The latest session of this process, active or ended: what live followers read. */
  latest(): LiveSession | null {
    return this.current;
  }

  /**
   * Opens the source and starts a session on it, replacing the active one.
   * A source that cannot be opened (a bad URL, a port in use, no device)
   * starts nothing and leaves the active session running.
   */
  async start(url: string): Promise<LiveSessionState> {
    const source = await this.options.openSource(url);
    const { noDataSeconds, persistSeconds } = this.options.settings();
    let session: LiveSession;
    try {
      await this.stopActive('replaced');
      const { checks, rules } = this.options.checkRun();
      // Made before its database, so that checks that cannot be made leave no database file behind.
      session = new LiveSession({
        id: randomUUID(),
        source,
        checks,
        rules,
        noDataSeconds,
        // Recorded in the catalog once it is the current session (below), not while its database is made.
        onStatus: (changed) => {
          if (changed === this.current) this.statusChanged(changed);
        },
        // Written into the database now, saved at the next save: held in one place, not two.
        onUnsaved: (changed) => {
          if (changed === this.current && this.database) this.writeRows(changed, this.database);
        },
      });
    } catch (error) {
      await source.close();
      throw error;
    }
    let database: LiveSessionDatabase;
    try {
      database = await this.options.store.openLiveDatabase(session.id, { create: true });
    } catch (error) {
      await session.stop('stopped');
      throw error;
    }
    this.current = session;
    this.database = database;
    this.persistTimer = setInterval(() => void this.persist(session), persistSeconds * 1_000);
    this.persistTimer.unref();
    touchRecentSource(this.options.store.catalog.db, isSerialSourceUrl(url) ? 'serial' : 'udp', url, Date.now());
    this.statusChanged(session);
    await this.saving;
    this.started.wakeAll();
    return session.state();
  }

  /** Stops the active live session and returns its final state (ERR_NO_ACTIVE_SESSION without one). */
  async stop(): Promise<LiveSessionState> {
    const session = this.active();
    if (!session) throw new WorkflowError('ERR_NO_ACTIVE_SESSION', 'there is no active live session');
    await this.stopActive('stopped');
    return session.state();
  }

  /** Stops the active live session, if any, and writes what it found last. */
  async stopActive(status: 'stopped' | 'replaced'): Promise<void> {
    const session = this.active();
    if (!session) return;
    await session.stop(status);
    if (this.persistTimer) clearInterval(this.persistTimer);
    this.persistTimer = null;
    await this.persist(session);
    await this.saving;
    const database = this.database;
    this.database = null;
    await database?.close();
  }

  /** A live session's state: the running one's from memory, an ended one's from the catalog. */
  get(id: string): LiveSessionState | null {
    if (this.current?.id === id) return this.current.state();
    const row = getSession<LiveSessionState>(this.options.store.catalog.db, id);
    return row && row.kind === 'live' ? row.state : null;
  }

  /** A live session's findings so far, in arrival order; null when `id` is no live session. */
  findings(id: string, query: { checkId?: string; limit: number; offset: number }): Promise<LiveRowPage<LiveFinding> | null> {
    return this.readDatabase(id, (database) => database.findings<LiveFinding>(query));
  }

  /** A live session's metadata packets so far; null when `id` is no live session. */
  metadata(id: string, query: { limit: number; offset: number }): Promise<LiveRowPage<LiveMetadataPacket> | null> {
    return this.readDatabase(id, (database) => database.metadata<LiveMetadataPacket>(query));
  }

  /** Resolves with the latest session once it is not `known` (a newer one started), or null when the signal aborts. */
  async nextSession(known: LiveSession | null, signal: AbortSignal): Promise<LiveSession | null> {
    while (this.current === known || this.current === null) {
      if (signal.aborted) return null;
      await this.started.wait(signal);
    }
    return this.current;
  }

  /** At service shutdown: the active session ends as 'stopped', with everything written. */
  async close(): Promise<void> {
    await this.stopActive('stopped');
  }

  private async readDatabase<T>(id: string, read: (database: LiveSessionDatabase) => Promise<T>): Promise<T | null> {
    // The session's own database until stopActive has written its last rows and let it go: the
    // store's copy, kept open for later pages, must be read from the finished file.
    const session = this.current;
    if (session?.id === id && this.database) {
      this.writeRows(session, this.database);
      return read(this.database);
    }
    if (!this.get(id)) return null;
    return this.options.store.readLiveDatabase(id, read);
  }

  private writeRows(session: LiveSession, database: LiveSessionDatabase): void {
    const { findings, metadata } = session.takeUnsaved();
    database.append(findings, metadata);
  }

  /** Writes the session's new rows and saves its database (queued behind any save in progress). */
  private persist(session: LiveSession): Promise<void> {
    const database = this.database;
    if (!database || this.current !== session) return this.saving;
    return this.queueSave('the live session', session.id, async () => {
      this.writeRows(session, database);
      await database.save({ ...LIVE_RETENTION, nowMs: Date.now() });
    });
  }

  private statusChanged(session: LiveSession): void {
    const state = session.state();
    const row: SessionRow<LiveSessionState> = {
      id: session.id,
      kind: 'live',
      source: state.source,
      status: state.status,
      createdMs: Date.parse(state.createdAt),
      updatedMs: Date.parse(state.updatedAt),
      state,
    };
    const catalog = this.options.store.catalog;
    putSession(catalog.db, row);
    void this.queueSave('the catalog', session.id, async () => {
      if (this.options.store.isOpen) await catalog.saveIfChanged();
    });
  }

  /** Runs a save after those queued before it; a failure is logged (the next save tries again), never thrown. */
  private queueSave(what: string, sessionId: string, save: () => Promise<void>): Promise<void> {
    this.saving = this.saving.then(save).catch((error: unknown) => {
      this.options.log.error(`could not save ${what}`, { sessionId, error: error instanceof Error ? error.message : String(error) });
    });
    return this.saving;
  }
}
