/**
 * An ingest run as stored: the folder `<dataDir>/runs/<runId>/` holding its
 * observations in parts of bounded size (`observations-000001.sqlite`, ...),
 * the points of each process run over it in parts of their own
 * (`points-<key>-000001.sqlite`, ...), and an index (`run.sqlite`) listing
 * the parts with what each holds. sql.js keeps a database whole in memory:
 * in parts, a run of any length is written and read with memory bounded by
 * a few parts, never by the recording (part-sequence.ts).
 *
 * Parts are read synchronously (a page or a replay goes from one part into
 * the next without waiting) and kept open a few at a time, the least
 * recently used closed first, never one still held. A save writes one part
 * or the index, atomically; a run is listed in the index only once every
 * part it names is on disk, and the catalog marks it completed only after.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from 'sql.js';
import type { Observation, ObservationKind } from '../kernel/observations.js';
import { DatabaseFile } from './database-file.js';
import { observationCountsOf, type DatasetPart, type DatasetParts, type PartHandle } from './datasets/dataset-parts.js';
import type { ObservationCounts } from './datasets/observation-counts.js';
import { replayObservations } from './datasets/observation-replay.js';
import { idPath } from './id-database-file.js';
import { DEFAULT_PART_BYTES } from './part-sequence.js';
import { readCheckPoints, type CheckPointPage, type CheckPointQuery, type PointPartSummary, type PointParts } from './run-check-points.js';
import type { Migration } from './schema-migrations.js';
import { loadedSqlEngine } from './sql-engine.js';
import { execute, executeEach, selectAll, textColumn } from './sql-query.js';
import { inTransaction } from './sql-transaction.js';
import { StoreError } from './store-error.js';

export const RUNS_FOLDER = 'runs';
export const RUN_INDEX_FILE = 'run.sqlite';

/**
 * Bytes of parts kept open beyond those held (a page being sent holds its part): a run of a few parts
 * (the 200 MB bench stream has five) stays open while its nine datasets are read one after the other,
 * instead of each dataset reading every part again (its NDJSON export read 216 MB of parts with two
 * kept open).
 */
export const OPEN_PART_BYTES = 32 * 1024 * 1024;

const RUN_INDEX_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'parts',
    up: (db) =>
      db.exec(`
        CREATE TABLE observation_parts (part INTEGER PRIMARY KEY, summary TEXT NOT NULL);
        CREATE TABLE point_parts (check_key TEXT NOT NULL, part INTEGER NOT NULL, summary TEXT NOT NULL, PRIMARY KEY (check_key, part)) WITHOUT ROWID;
      `),
  },
];

export function runFolderPath(dataDir: string, runId: string): string {
  return idPath(dataDir, RUNS_FOLDER, runId, 'ingest run id', 'runId');
}

export function observationPartFile(part: number): string {
  return `observations-${String(part).padStart(6, '0')}.sqlite`;
}

/** The file names of a check key's point parts start with this (a key is any text; its hash names files). */
function pointFilePrefix(checkKey: string): string {
  return `points-${createHash('sha256').update(checkKey).digest('hex').slice(0, 16)}-`;
}

export function pointPartFile(checkKey: string, part: number): string {
  return `${pointFilePrefix(checkKey)}${String(part).padStart(6, '0')}.sqlite`;
}

/** How a run's parts are written (tests make them small). */
export interface RunPartOptions {
  /** The size a part grows to before the next begins; default DEFAULT_PART_BYTES. */
  partBytes?: number;
  /** Rows per transaction of the run's writers, after each of which a part may end; default theirs. */
  rowsPerTransaction?: number;
}

export interface StoredRunOptions extends RunPartOptions {
  /** Make the run's folder and index when missing (and write the index at once). Default false. */
  create?: boolean;
}

interface OpenPart {
  readonly db: Database;
  readonly bytes: number;
  holders: number;
}

export class StoredRun implements DatasetParts {
  #parts: readonly DatasetPart[];
  readonly #pointParts: Map<string, readonly PointPartSummary[]>;
  /** By file name, least recently used first. */
  readonly #open = new Map<string, OpenPart>();

  private constructor(
    readonly runId: string,
    readonly folder: string,
    private readonly index: DatabaseFile,
    /** How its writers write parts. */
    readonly partOptions: RunPartOptions,
  ) {
    this.#parts = selectAll(index.db, 'SELECT summary FROM observation_parts ORDER BY part').map((row) => JSON.parse(textColumn(row, 'summary')) as DatasetPart);
    this.#pointParts = new Map();
    for (const row of selectAll(index.db, 'SELECT check_key, summary FROM point_parts ORDER BY check_key, part')) {
      const key = textColumn(row, 'check_key');
      this.#pointParts.set(key, [...(this.#pointParts.get(key) ?? []), JSON.parse(textColumn(row, 'summary')) as PointPartSummary]);
    }
  }

  /** Opens a run (with `create`, makes its folder and index); ERR_STORE_NOT_FOUND when it is not stored. */
  static async open(dataDir: string, runId: string, options: StoredRunOptions = {}): Promise<StoredRun> {
    const folder = runFolderPath(dataDir, runId);
    const create = options.create ?? false;
    if (create) await mkdir(folder, { recursive: true });
    else if (!existsSync(folder)) throw new StoreError('ERR_STORE_NOT_FOUND', `ingest run ${runId} is not stored (no folder ${folder})`, { runId, path: folder });
    const index = await DatabaseFile.open(join(folder, RUN_INDEX_FILE), { label: `ingest run ${runId}`, migrations: RUN_INDEX_MIGRATIONS, create });
    // A new run is on disk at once, so a catalog row never points at nothing.
    if (!index.existed) await index.save();
    const { partBytes = DEFAULT_PART_BYTES, rowsPerTransaction } = options;
    return new StoredRun(runId, folder, index, { partBytes, rowsPerTransaction });
  }

  /** The observation parts, in `seq` order (DatasetParts). */
  get parts(): readonly DatasetPart[] {
    return this.#parts;
  }

  /** The stored observations of each kind. */
  get counts(): ObservationCounts {
    return observationCountsOf(this.#parts);
  }

  /** Opens observation part `index` (from 0); release it when done. */
  open(index: number): PartHandle {
    return this.openFile(observationPartFile(index + 1));
  }

  /** Every stored observation in emission order, or those of `kinds` only, part after part (observation-replay.ts). */
  *replay(kinds?: ReadonlySet<ObservationKind>): Generator<Observation, void, undefined> {
    for (let index = 0; index < this.#parts.length; index++) {
      const part = this.open(index);
      try {
        yield* replayObservations(part.db, kinds);
      } finally {
        part.release();
      }
    }
  }

  /** The points stored under a check key, or undefined when no process stored any. */
  pointParts(checkKey: string): PointParts | undefined {
    const parts = this.#pointParts.get(checkKey);
    if (parts === undefined) return undefined;
    return { parts, open: (index) => this.openFile(pointPartFile(checkKey, index + 1)) };
  }

  /** One page of a check's points stored under a key (run-check-points.ts); none when no process stored any. */
  readCheckPoints(checkKey: string, checkId: string, query: CheckPointQuery): CheckPointPage {
    const parts = this.pointParts(checkKey);
    return parts === undefined ? { total: 0, points: [] } : readCheckPoints(parts, checkId, query);
  }

  /** Lists the observation parts, all on disk, in the index, and saves it. */
  async recordObservationParts(parts: readonly DatasetPart[]): Promise<void> {
    inTransaction(this.index.db, () => {
      execute(this.index.db, 'DELETE FROM observation_parts');
      executeEach(this.index.db, 'INSERT INTO observation_parts (part, summary) VALUES ($part, $summary)', parts.entries(), ([index, part]) => ({
        $part: index + 1,
        $summary: JSON.stringify(part),
      }));
    });
    await this.index.save();
    this.#parts = parts;
  }

  /** Lists a check key's point parts, all on disk, in the index, and saves it. */
  async recordPointParts(checkKey: string, parts: readonly PointPartSummary[]): Promise<void> {
    inTransaction(this.index.db, () => {
      execute(this.index.db, 'DELETE FROM point_parts WHERE check_key = $key', { $key: checkKey });
      executeEach(this.index.db, 'INSERT INTO point_parts (check_key, part, summary) VALUES ($key, $part, $summary)', parts.entries(), ([index, part]) => ({
        $key: checkKey,
        $part: index + 1,
        $summary: JSON.stringify(part),
      }));
    });
    await this.index.save();
    this.#pointParts.set(checkKey, parts);
  }

  /** Deletes the points stored under a key (before a process writes them again, or after it failed): index first, then files. */
  async dropPointParts(checkKey: string): Promise<void> {
    if (this.#pointParts.delete(checkKey)) {
      execute(this.index.db, 'DELETE FROM point_parts WHERE check_key = $key', { $key: checkKey });
      await this.index.save();
    }
    const prefix = pointFilePrefix(checkKey);
    for (const name of await readdir(this.folder)) {
      if (!name.startsWith(prefix)) continue;
      this.closeFile(name);
      await rm(join(this.folder, name), { force: true });
    }
  }

  /** Closes the open parts and the index. */
  async close(): Promise<void> {
    for (const part of this.#open.values()) part.db.close();
    this.#open.clear();
    await this.index.close();
  }

  private openFile(name: string): PartHandle {
    let part = this.#open.get(name);
    if (part === undefined) {
      const bytes = this.readPart(name);
      part = { db: new (loadedSqlEngine().Database)(bytes), bytes: bytes.length, holders: 0 };
    } else {
      this.#open.delete(name);
    }
    this.#open.set(name, part);
    part.holders++;
    const held = part;
    let released = false;
    this.closeBeyondLimit();
    return {
      db: held.db,
      release: () => {
        if (released) return;
        released = true;
        held.holders--;
        this.closeBeyondLimit();
      },
    };
  }

  private readPart(name: string): Uint8Array {
    const path = join(this.folder, name);
    try {
      return readFileSync(path);
    } catch (error) {
      throw new StoreError('ERR_STORE_CORRUPT', `ingest run ${this.runId} lacks its part ${path}: ${(error as Error).message}`, { runId: this.runId, path }, { cause: error });
    }
  }

  private closeFile(name: string): void {
    const part = this.#open.get(name);
    if (part === undefined) return;
    this.#open.delete(name);
    part.db.close();
  }

  private closeBeyondLimit(): void {
    let idle = 0;
    for (const part of this.#open.values()) if (part.holders === 0) idle += part.bytes;
    for (const [name, part] of this.#open) {
      if (idle <= OPEN_PART_BYTES) return;
      if (part.holders > 0) continue;
      this.closeFile(name);
      idle -= part.bytes;
    }
  }

  /** Bytes of the parts open now. */
  get openBytes(): number {
    let bytes = 0;
    for (const part of this.#open.values()) bytes += part.bytes;
    return bytes;
  }
}

/** Deletes a run's folder; returns false when there was none. */
export async function deleteStoredRun(dataDir: string, runId: string): Promise<boolean> {
  const folder = runFolderPath(dataDir, runId);
  if (!existsSync(folder)) return false;
  await rm(folder, { recursive: true, force: true });
  return true;
}
