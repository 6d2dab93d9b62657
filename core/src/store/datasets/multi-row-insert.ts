/**
 * Rows of one table gathered and inserted `rowsPerStatement` at a time with
 * one multi-row statement, `INSERT INTO t (...) VALUES (...), (...), …`.
 * Each sql.js `run` crosses into WebAssembly several times besides one bind
 * per value (reset, clear bindings, step, reset again): one statement for
 * many rows pays that once (docs/store.md gives the figure).
 *
 * The caller fills a row in place in `values` at `nextRow()` and then calls
 * `added()`; nothing is allocated per row. Rows still gathered must be
 * stored with `flush()` before their transaction commits, or dropped with
 * `drop()` when it rolls back. SQLite's refusal of a row (a constraint)
 * comes from the call that inserts it: added() of a later row, or flush().
 */
import type { Database, SqlValue, Statement } from 'sql.js';

/** The most rows in one statement: 64 rows of the widest table (12 columns) bind 768 values, below SQLite's oldest limit of 999. */
export const MAX_ROWS_PER_STATEMENT = 64;

export class MultiRowInsert {
  /** The gathered rows, one after the other, `width` values each: `rowsPerStatement` rows, bound whole by the multi-row statement. */
  readonly values: SqlValue[];
  private readonly oneRow: SqlValue[];
  private readonly single: Statement;
  private readonly multiple: Statement;
  private pending = 0;

  /**
   * `insertSql(rows)` gives the INSERT of `rows` rows of `width` values each; with one row per
   * statement, the one-row statement is the only one.
   */
  constructor(
    db: Database,
    insertSql: (rows: number) => string,
    private readonly width: number,
    private readonly rowsPerStatement: number,
  ) {
    this.values = new Array<SqlValue>(width * rowsPerStatement).fill(null);
    this.oneRow = new Array<SqlValue>(width).fill(null);
    this.single = db.prepare(insertSql(1));
    try {
      this.multiple = rowsPerStatement === 1 ? this.single : db.prepare(insertSql(rowsPerStatement));
    } catch (error) {
      this.single.free();
      throw error;
    }
  }

  /** Where in `values` the next row's first value goes. */
  nextRow(): number {
    return this.pending * this.width;
  }

  /** Counts the row just filled at nextRow(); inserts the gathered rows once there are `rowsPerStatement`. */
  added(): void {
    if (++this.pending < this.rowsPerStatement) return;
    this.pending = 0;
    this.multiple.run(this.values);
  }

  /** Inserts the rows still gathered (fewer than a statement's), one statement each: at most one such remainder per commit. */
  flush(): void {
    const { pending, width, values, oneRow } = this;
    this.pending = 0;
    for (let row = 0; row < pending; row++) {
      for (let i = 0; i < width; i++) oneRow[i] = values[row * width + i];
      this.single.run(oneRow);
    }
  }

  /** Forgets the rows gathered, uninserted (their transaction is rolled back). */
  drop(): void {
    this.pending = 0;
  }

  free(): void {
    this.single.free();
    if (this.multiple !== this.single) this.multiple.free();
  }
}

/** `INSERT INTO <table> (<names>) VALUES <row>, <row>, …`: `rows` times the one row's placeholders. */
export function multiRowInsertSql(table: string, names: string, row: string, rows: number): string {
  return `INSERT INTO ${table} (${names}) VALUES ${new Array<string>(rows).fill(row).join(', ')}`;
}
