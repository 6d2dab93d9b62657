/**
 * One database file per live session, `<dataDir>/live/<sessionId>.sqlite`:
 * its findings and decoded metadata packets in arrival order, each row
 * numbered by the session (`seq`). A live feed has no end, so the rows are
 * bounded: the oldest go once a table holds more than its limit, and
 * findings older than their age limit go too (the session's counters still
 * count them). A save writes this session only.
 */
import type { Database } from 'sql.js';
import type { DatabaseFile } from './database-file.js';
import { idDatabasePath, openIdDatabase } from './id-database-file.js';
import type { Migration } from './schema-migrations.js';
import { execute, executeEach, jsonColumn, numberColumn, selectAll, selectOne } from './sql-query.js';
import { inTransaction } from './sql-transaction.js';

const LIVE_FOLDER = 'live';

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
];

export function liveDatabasePath(dataDir: string, sessionId: string): string {
  return idDatabasePath(dataDir, LIVE_FOLDER, sessionId, 'session id', 'sessionId');
}

export interface LiveDatabaseOptions {
  /** Make a new database when the file is missing (and write it at once). Default false. */
  create?: boolean;
}

/** Opens (or with `create`, makes and writes at once) a live session's database; the caller saves and closes it. */
export async function openLiveDatabase(dataDir: string, sessionId: string, options: LiveDatabaseOptions = {}): Promise<DatabaseFile> {
  return openIdDatabase(liveDatabasePath(dataDir, sessionId), `live session ${sessionId}`, LIVE_DATABASE_MIGRATIONS, options.create ?? false);
}

/** What a live finding row needs; the rest of the finding is stored as JSON. */
export interface LiveFindingRow {
  seq: number;
  checkId: string;
  severity: string;
  /** When it was published (ms since the epoch): what the age limit measures. */
  emittedAt: number;
}

/** What a live session's database keeps at most: the latest rows, and findings no older than an age. */
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

/** Appends findings and metadata packets in one transaction, then drops the oldest rows beyond the limits. */
export function appendLiveRows(db: Database, findings: ReadonlyArray<LiveFindingRow>, metadata: ReadonlyArray<{ seq: number }>, limits: LiveRowLimits): void {
  inTransaction(db, () => {
    if (findings.length > 0) {
      const sql = 'INSERT OR REPLACE INTO live_findings (seq, check_id, severity, finding, emitted_ms) VALUES (?, ?, ?, ?, ?)';
      executeEach(db, sql, findings, (finding) => [finding.seq, finding.checkId, finding.severity, JSON.stringify(finding), finding.emittedAt]);
      pruneOldest(db, 'live_findings', limits.findings);
    }
    if (limits.findingsMaxAgeMs !== undefined) {
      execute(db, 'DELETE FROM live_findings WHERE emitted_ms < $cutoff', { $cutoff: (limits.nowMs ?? Date.now()) - limits.findingsMaxAgeMs });
    }
    if (metadata.length > 0) {
      executeEach(db, 'INSERT OR REPLACE INTO live_metadata (seq, packet) VALUES (?, ?)', metadata, (packet) => [packet.seq, JSON.stringify(packet)]);
      pruneOldest(db, 'live_metadata', limits.metadata);
    }
  });
}

/** Findings in arrival order, optionally of one check. */
export function readLiveFindings<T>(db: Database, query: { checkId?: string; limit: number; offset: number }): LiveRowPage<T> {
  const where = query.checkId === undefined ? '' : 'WHERE check_id = $check';
  const params: Record<string, string> = query.checkId === undefined ? {} : { $check: query.checkId };
  const total = numberColumn(selectOne(db, `SELECT count(*) AS n FROM live_findings ${where}`, params) ?? { n: 0 }, 'n');
  const rows = selectAll(db, `SELECT finding FROM live_findings ${where} ORDER BY seq LIMIT $limit OFFSET $offset`, { ...params, $limit: query.limit, $offset: query.offset });
  return { total, rows: rows.map((row) => jsonColumn<T>(row, 'finding')) };
}

/** Metadata packets in arrival order. */
export function readLiveMetadata<T>(db: Database, query: { limit: number; offset: number }): LiveRowPage<T> {
  const total = numberColumn(selectOne(db, 'SELECT count(*) AS n FROM live_metadata') ?? { n: 0 }, 'n');
  const rows = selectAll(db, 'SELECT packet FROM live_metadata ORDER BY seq LIMIT $limit OFFSET $offset', { $limit: query.limit, $offset: query.offset });
  return { total, rows: rows.map((row) => jsonColumn<T>(row, 'packet')) };
}

function pruneOldest(db: Database, table: 'live_findings' | 'live_metadata', keep: number): void {
  execute(db, `DELETE FROM ${table} WHERE seq <= (SELECT seq FROM ${table} ORDER BY seq DESC LIMIT 1 OFFSET $keep)`, { $keep: keep });
}
