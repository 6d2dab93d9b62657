/**
 * A pool of connections to the catalog's PostgreSQL (node-postgres). BIGINT
 * columns come back as numbers, as SQLite's integers do: sizes, times and
 * counts stay far below 2^53. Errors are mapped (postgres-unavailable.ts) so
 * callers see ERR_CATALOG_UNAVAILABLE whenever the server cannot be reached.
 */
import pg from 'pg';
import { catalogError } from './postgres-unavailable.js';

const INT8_OID = 20;

const parseInt8 = (text: string): number => Number(text);
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8_OID && format !== 'binary' ? parseInt8 : (pg.types.getTypeParser as (oid: number, format?: string) => unknown)(oid, format)) as typeof pg.types.getTypeParser,
};

export interface PostgresConnectionOptions {
  /** Connections at most in the pool (default 4). */
  maxConnections?: number;
  /** How long to wait for a connection before ERR_CATALOG_UNAVAILABLE (default 5,000 ms). */
  connectTimeoutMs?: number;
  /** Names the connections in pg_stat_activity (default klvscope). */
  applicationName?: string;
}

/** Runs statements: the pool, or one client inside a transaction. */
export interface SqlRunner {
  query<R extends object = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
}

export class PostgresConnection implements SqlRunner {
  readonly pool: pg.Pool;
  /** host:port/database, for messages (never the password). */
  readonly where: string;

  constructor(url: string, options: PostgresConnectionOptions = {}) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.maxConnections ?? 4,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      application_name: options.applicationName ?? 'klvscope',
      types,
    });
    // An idle client whose server went away emits 'error' on the pool; unheard, that would end the process.
    this.pool.on('error', () => undefined);
    this.where = describeUrl(url);
  }

  async query<R extends object = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, params as unknown[])).rows;
    } catch (error) {
      throw catalogError(error, this.where);
    }
  }

  /** Runs `work` on one client in a transaction: committed when it returns, rolled back when it throws. */
  async transaction<T>(work: (runner: SqlRunner) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw catalogError(error, this.where);
    }
    // A checked-out client whose server goes away emits 'error' between statements: unheard, that would end the
    // process. The statement in progress (or the next) fails with it, which is how the caller learns of it.
    const ignore = (): void => undefined;
    client.on('error', ignore);
    const runner: SqlRunner = {
      query: async <R extends object>(sql: string, params: readonly unknown[] = []) => {
        try {
          return (await client.query<R>(sql, params as unknown[])).rows;
        } catch (error) {
          throw catalogError(error, this.where);
        }
      },
    };
    let broken = false;
    try {
      await runner.query('BEGIN');
      const result = await work(runner);
      await runner.query('COMMIT');
      return result;
    } catch (error) {
      broken = await runner.query('ROLLBACK').then(
        () => false,
        () => true,
      );
      throw error;
    } finally {
      // A client whose rollback failed may hold a broken connection: the pool drops it.
      client.off('error', ignore);
      client.release(broken);
    }
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

/** `postgres://user:secret@host:5432/db?x` → `host:5432/db`. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'an unparsable URL';
  }
}
