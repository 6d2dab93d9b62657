/**
 * A live session's findings and decoded metadata packets, in arrival order,
 * each row numbered by the session (`seq`), kept on disk rather than in
 * memory: sql.js holds a database whole in memory, and 20,000 metadata
 * packets are tens of megabytes (issue 35: a flood's RSS was mostly the
 * session's database). So the rows are written as parts:
 *
 * - the head, `<dataDir>/live/<sessionId>.sqlite`, holds the newest rows
 *   (fewer than `partRows` of a table after each save, plus what arrived
 *   since) and the index of the sealed parts;
 * - each sealed part, `<dataDir>/live/<sessionId>/<table>-<firstSeq>.sqlite`,
 *   holds `partRows` rows of one table, written once and read from disk
 *   when a page needs it.
 *
 * A save seals the head's oldest rows into parts, drops parts beyond the
 * limits, and writes the head atomically; a part is in the session only
 * once the head that names it is on disk, so a crash at any point leaves
 * the previous head and its parts (a part written but never named is swept
 * at the next open). Retention goes by whole parts (the head is pruned
 * exactly): a table keeps its latest `limit` rows and fewer than `partRows`
 * more; findings whose part's newest is older than the age limit go too.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from 'sql.js';
import { DatabaseFile } from './database-file.js';
import { idDatabasePath, idPath, openIdDatabase } from './id-database-file.js';
import type { Migration } from './schema-migrations.js';
import { execute, executeEach, jsonColumn, numberColumn, selectAll, selectOne, textColumn } from './sql-query.js';
import { inTransaction } from './sql-transaction.js';

const LIVE_FOLDER = 'live';

/** Rows of a table per sealed part: about 0.5 MB of findings, 2 MB of ST 0601 metadata packets. */
export const DEFAULT_LIVE_PART_ROWS = 1_000;

const LIVE_DATABASE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'live findings and metadata packets',
    up: (db) =>
      db.exec(`
        CREATE TABLE live_findings (seq INTEGER PRIMARY KEY, check_id TEXT NOT NULL, severity TEXT NOT NULL, finding TEXT NOT NULL);
        CREATE INDEX live_findings_by_check ON live_findings (check_id, seq);
        CREATE TABLE live_metadata (seq INTEGER PRIMARY KEY, packet TEXT NOT NULL);
      `),
  },
  {
    version: 2,
    name: 'live findings kept by age',
    // Rows written before the column existed count as old as the epoch: the next age limit drops them.
    up: (db) => db.exec('ALTER TABLE live_findings ADD COLUMN emitted_ms REAL NOT NULL DEFAULT 0; CREATE INDEX live_findings_by_age ON live_findings (emitted_ms);'),
  },
  {
    version: 3,
    name: 'live rows sealed in parts on disk',
    // by_check: {checkId: rows} of a findings part, so a filtered page skips parts without opening them.
    up: (db) =>
      db.exec(
        'CREATE TABLE live_parts (file TEXT PRIMARY KEY, tbl TEXT NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, rows INTEGER NOT NULL, newest_ms REAL NOT NULL, by_check TEXT NOT NULL);',
      ),
  },
];

type LiveTable = 'live_findings' | 'live_metadata';

interface LivePart {
  file: string;
  table: LiveTable;
  firstSeq: number;
  lastSeq: number;
  rows: number;
  newestMs: number;
  byCheck: Record<string, number>;
}

export function liveDatabasePath(dataDir: string, sessionId: string): string {
  return idDatabasePath(dataDir, LIVE_FOLDER, sessionId, 'session id', 'sessionId');
}

/** The folder of a live session's sealed parts. */
export function livePartsFolder(dataDir: string, sessionId: string): string {
  return idPath(dataDir, LIVE_FOLDER, sessionId, 'session id', 'sessionId');
}

export interface LiveDatabaseOptions {
  /** Make a new database when the file is missing (and write it at once). Default false. */
  create?: boolean;
  /** Rows of a table per sealed part (tests make them small); default DEFAULT_LIVE_PART_ROWS. */
  partRows?: number;
}

/** What a live finding row needs; the rest of the finding is stored as JSON. */
export interface LiveFindingRow {
  seq: number;
  checkId: string;
  severity: string;
  /** When it was published (ms since the epoch): what the age limit measures. */
  emittedAt: number;
}

/** What a live session's database keeps at least (see the retention above): the latest rows, and findings no older than an age. */
export interface LiveRowLimits {
  findings: number;
  metadata: number;
  /** Findings published longer ago than this (before `nowMs`) are dropped; none by age when absent. */
  findingsMaxAgeMs?: number;
  nowMs?: number;
}

export interface LiveRowPage<T> {
  /** Rows kept that match (older ones may have been dropped, see the limits). */
  total: number;
  rows: T[];
}

/** Opens (or with `create`, makes and writes at once) a live session's database; the caller saves and closes it. */
export async function openLiveDatabase(dataDir: string, sessionId: string, options: LiveDatabaseOptions = {}): Promise<LiveSessionDatabase> {
  const head = await openIdDatabase(liveDatabasePath(dataDir, sessionId), `live session ${sessionId}`, LIVE_DATABASE_MIGRATIONS, options.create ?? false);
  const database = new LiveSessionDatabase(head, livePartsFolder(dataDir, sessionId), options.partRows ?? DEFAULT_LIVE_PART_ROWS);
  await database.sweepUnnamedParts();
  return database;
}

export class LiveSessionDatabase {
  #parts: LivePart[];
  /** Reads in progress: dropped parts are deleted only when none is (a read may be opening one). */
  #readers = 0;
  #unlinkLater: string[] = [];

  constructor(
    private readonly head: DatabaseFile,
    private readonly folder: string,
    private readonly partRows: number,
  ) {
    this.#parts = selectAll(head.db, 'SELECT * FROM live_parts ORDER BY tbl, first_seq').map((row) => ({
      file: textColumn(row, 'file'),
      table: textColumn(row, 'tbl') as LiveTable,
      firstSeq: numberColumn(row, 'first_seq'),
      lastSeq: numberColumn(row, 'last_seq'),
      rows: numberColumn(row, 'rows'),
      newestMs: numberColumn(row, 'newest_ms'),
      byCheck: jsonColumn<Record<string, number>>(row, 'by_check'),
    }));
  }

  get path(): string {
    return this.head.path;
  }

  /** Appends findings and metadata packets to the head in one transaction (in memory until the next save). */
  append(findings: ReadonlyArray<LiveFindingRow>, metadata: ReadonlyArray<{ seq: number }>): void {
    if (findings.length === 0 && metadata.length === 0) return;
    const db = this.head.db;
    inTransaction(db, () => {
      executeEach(db, 'INSERT OR REPLACE INTO live_findings (seq, check_id, severity, finding, emitted_ms) VALUES (?, ?, ?, ?, ?)', findings, (finding) => [
        finding.seq,
        finding.checkId,
        finding.severity,
        JSON.stringify(finding),
        finding.emittedAt,
      ]);
      executeEach(db, 'INSERT OR REPLACE INTO live_metadata (seq, packet) VALUES (?, ?)', metadata, (packet) => [packet.seq, JSON.stringify(packet)]);
    });
  }

  /**
   * Seals the head's full parts, applies the limits and writes the head
   * atomically (only if anything changed); parts dropped are deleted once
   * the head that no longer names them is on disk. Not to overlap another save.
   */
  async save(limits: LiveRowLimits): Promise<void> {
    await this.seal('live_findings');
    await this.seal('live_metadata');
    const dropped = this.applyLimits(limits);
    await this.head.saveIfChanged();
    this.#unlinkLater.push(...dropped);
    await this.unlinkDropped();
  }

  /** Findings in arrival order, optionally of one check. */
  findings<T>(query: { checkId?: string; limit: number; offset: number }): Promise<LiveRowPage<T>> {
    const filter = query.checkId === undefined ? null : { where: 'WHERE check_id = $check', params: { $check: query.checkId } };
    const count = (part: LivePart): number => (query.checkId === undefined ? part.rows : (part.byCheck[query.checkId] ?? 0));
    return this.page<T>('live_findings', 'finding', filter, count, query);
  }

  /** Metadata packets in arrival order. */
  metadata<T>(query: { limit: number; offset: number }): Promise<LiveRowPage<T>> {
    return this.page<T>('live_metadata', 'packet', null, (part) => part.rows, query);
  }

  /** Waits for reads and pending saves, then frees the memory. Does not save: call save() first to keep changes. */
  async close(): Promise<void> {
    await this.head.close();
  }

  /** Removes part files the head does not name: written by a save that did not finish (their rows are still in the head). */
  async sweepUnnamedParts(): Promise<void> {
    const named = new Set(this.#parts.map((part) => part.file));
    const files = await readdir(this.folder).catch(() => [] as string[]);
    for (const file of files) if (!named.has(file)) await rm(join(this.folder, file), { force: true });
  }

  private async page<T>(
    table: LiveTable,
    column: string,
    filter: { where: string; params: Record<string, string> } | null,
    count: (part: LivePart) => number,
    query: { limit: number; offset: number },
  ): Promise<LiveRowPage<T>> {
    // The head's rows and the parts as of now: a save during the read changes neither what this page counts nor its files.
    const headDb = this.head.db;
    const where = filter?.where ?? '';
    const params = filter?.params ?? {};
    const headRows = numberColumn(selectOne(headDb, `SELECT count(*) AS n FROM ${table} ${where}`, params) ?? { n: 0 }, 'n');
    const parts = this.#parts.filter((part) => part.table === table);
    const total = parts.reduce((sum, part) => sum + count(part), headRows);
    let skip = query.offset;
    let wanted = query.limit;
    const rows: T[] = [];
    const take = (db: Database): void => {
      const selected = selectAll(db, `SELECT ${column} FROM ${table} ${where} ORDER BY seq LIMIT $limit OFFSET $offset`, { ...params, $limit: wanted, $offset: skip });
      for (const row of selected) rows.push(jsonColumn<T>(row, column));
      wanted -= selected.length;
      skip = 0;
    };
    // Parts before the offset are skipped by their counts, not opened.
    this.#readers++;
    try {
      for (const part of parts) {
        if (wanted <= 0) break;
        const n = count(part);
        if (skip >= n) {
          skip -= n;
          continue;
        }
        const file = await DatabaseFile.open(join(this.folder, part.file), { label: `live part ${part.file}`, migrations: LIVE_DATABASE_MIGRATIONS, create: false });
        try {
          take(file.db);
        } finally {
          await file.close();
        }
      }
      if (wanted > 0 && this.head.isOpen) take(this.head.db);
    } finally {
      this.#readers--;
    }
    await this.unlinkDropped();
    return { total, rows };
  }

  /** Moves the head's oldest rows of `table` into parts while it holds a full part's worth. */
  private async seal(table: LiveTable): Promise<void> {
    const db = this.head.db;
    for (;;) {
      const rows = selectAll(db, `SELECT * FROM ${table} ORDER BY seq LIMIT $n`, { $n: this.partRows });
      if (rows.length < this.partRows) return;
      const firstSeq = numberColumn(rows[0], 'seq');
      const lastSeq = numberColumn(rows[rows.length - 1], 'seq');
      const file = `${table === 'live_findings' ? 'findings' : 'metadata'}-${String(firstSeq).padStart(12, '0')}.sqlite`;
      const byCheck: Record<string, number> = {};
      let newestMs = 0;
      if (table === 'live_findings') {
        for (const row of rows) {
          const checkId = textColumn(row, 'check_id');
          byCheck[checkId] = (byCheck[checkId] ?? 0) + 1;
          newestMs = Math.max(newestMs, numberColumn(row, 'emitted_ms'));
        }
      }
      const part = await DatabaseFile.open(join(this.folder, file), { label: `live part ${file}`, migrations: LIVE_DATABASE_MIGRATIONS, create: true });
      try {
        const columns = Object.keys(rows[0]);
        inTransaction(part.db, () =>
          executeEach(part.db, `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, rows, (row) => columns.map((c) => row[c])),
        );
        await part.save();
      } finally {
        await part.close();
      }
      // Named only now that the part is on disk; the head on disk still holds these rows until its own save.
      const sealed: LivePart = { file, table, firstSeq, lastSeq, rows: rows.length, newestMs, byCheck };
      inTransaction(db, () => {
        execute(db, `DELETE FROM ${table} WHERE seq <= $last`, { $last: lastSeq });
        execute(db, 'INSERT INTO live_parts (file, tbl, first_seq, last_seq, rows, newest_ms, by_check) VALUES ($file, $tbl, $first, $last, $rows, $newest, $byCheck)', {
          $file: file,
          $tbl: table,
          $first: firstSeq,
          $last: lastSeq,
          $rows: sealed.rows,
          $newest: newestMs,
          $byCheck: JSON.stringify(byCheck),
        });
      });
      this.#parts.push(sealed);
    }
  }

  /** Drops whole parts beyond the limits (and the head's rows beyond them); returns the files to delete after the head's save. */
  private applyLimits(limits: LiveRowLimits): string[] {
    const db = this.head.db;
    const cutoffMs = limits.findingsMaxAgeMs === undefined ? -Infinity : (limits.nowMs ?? Date.now()) - limits.findingsMaxAgeMs;
    const headCount = (table: LiveTable): number => numberColumn(selectOne(db, `SELECT count(*) AS n FROM ${table}`) ?? { n: 0 }, 'n');
    const dropped: LivePart[] = [];
    for (const [table, keep] of [
      ['live_findings', limits.findings],
      ['live_metadata', limits.metadata],
    ] as const) {
      const parts = this.#parts.filter((part) => part.table === table);
      let kept = parts.reduce((sum, part) => sum + part.rows, headCount(table));
      for (const part of parts) {
        const aged = table === 'live_findings' && part.newestMs < cutoffMs;
        if (!aged && kept - part.rows < keep) break;
        dropped.push(part);
        kept -= part.rows;
      }
    }
    inTransaction(db, () => {
      for (const part of dropped) execute(db, 'DELETE FROM live_parts WHERE file = $file', { $file: part.file });
      if (cutoffMs > -Infinity) execute(db, 'DELETE FROM live_findings WHERE emitted_ms < $cutoff', { $cutoff: cutoffMs });
      pruneOldest(db, 'live_findings', limits.findings);
      pruneOldest(db, 'live_metadata', limits.metadata);
    });
    this.#parts = this.#parts.filter((part) => !dropped.includes(part));
    return dropped.map((part) => part.file);
  }

  private async unlinkDropped(): Promise<void> {
    if (this.#readers > 0 || this.#unlinkLater.length === 0) return;
    const files = this.#unlinkLater;
    this.#unlinkLater = [];
    for (const file of files) await rm(join(this.folder, file), { force: true });
  }
}

/** Keeps the latest `keep` rows of the head's table (the parts are older still, and dropped first). */
function pruneOldest(db: Database, table: LiveTable, keep: number): void {
  execute(db, `DELETE FROM ${table} WHERE seq <= (SELECT seq FROM ${table} ORDER BY seq DESC LIMIT 1 OFFSET $keep)`, { $keep: keep });
}
