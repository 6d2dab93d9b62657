/**
 * The query of a generated collection endpoint (json-server's semantics:
 * equality filters, `_gte`, `_lte`, `_ne`, `_like`, `_sort` on several
 * columns, `_order`, `_page`, `_limit`) as one SELECT and one COUNT. Field
 * names come only from the collection's own column list, so the SQL text is
 * fixed by the schema; every value the client sent is a bound parameter.
 */
import type { BindParams, Database } from 'sql.js';
import { numberColumn, selectAll, selectOne, type SqlRow } from './sql-query.js';

export type FilterOperator = 'eq' | 'ne' | 'gte' | 'lte' | 'like';

export interface CollectionField {
  /** As the API names it: `createdAt`. */
  field: string;
  /** An SQL expression over the table's alias `t`: `t.created_at`. */
  sql: string;
  /** `datetime`: text in relay-time.ts's canonical form, so filters on it compare times. */
  type: 'text' | 'integer' | 'datetime';
}

export interface CollectionFilter {
  field: string;
  operator: FilterOperator;
  /** Several values of an equality (or ne) filter: any of them (eq), none of them (ne). */
  values: readonly (string | number)[];
}

export interface CollectionSort {
  field: string;
  descending: boolean;
}

export interface CollectionQuery {
  filters: readonly CollectionFilter[];
  sort: readonly CollectionSort[];
  limit: number;
  /** 1 for the first page. */
  page: number;
}

export interface CollectionTable {
  /** `relay_platforms`; aliased `t` in every query. */
  table: string;
  fields: readonly CollectionField[];
  /** Filters that are not a column (a platform's `channels`): the condition for one value, with one `?`. */
  relationFilters?: Readonly<Record<string, string>>;
  /** The order rows have when no `_sort` is given, and after the sorted columns: insertion order, as json-server's. */
  tieBreaker: string;
}

export interface CollectionPage {
  rows: SqlRow[];
  /** Rows matching the filters, all pages together (X-Total-Count). */
  total: number;
}

const COMPARISON: Readonly<Record<Exclude<FilterOperator, 'like' | 'eq' | 'ne'>, string>> = { gte: '>=', lte: '<=' };

export function selectCollection(db: Database, table: CollectionTable, query: CollectionQuery): CollectionPage {
  const fields = new Map(table.fields.map((field) => [field.field, field]));
  const conditions: string[] = [];
  const params: (string | number)[] = [];
  for (const filter of query.filters) {
    const relation = table.relationFilters?.[filter.field];
    if (relation !== undefined) {
      if (filter.operator !== 'eq') throw new RangeError(`'${filter.field}' is matched by equality only`);
      conditions.push(`(${filter.values.map(() => relation).join(' OR ')})`);
      params.push(...filter.values);
      continue;
    }
    const field = fields.get(filter.field);
    if (field === undefined) throw new RangeError(`no field '${filter.field}' in ${table.table}`);
    conditions.push(conditionOf(field, filter));
    params.push(...(filter.operator === 'like' ? filter.values.map((v) => `%${escapeLike(String(v))}%`) : filter.values));
  }
  const where = conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`;
  const order = [
    ...query.sort.map((sort) => {
      const field = fields.get(sort.field);
      if (field === undefined) throw new RangeError(`no field '${sort.field}' in ${table.table}`);
      return `${field.sql} ${sort.descending ? 'DESC' : 'ASC'}`;
    }),
    table.tieBreaker,
  ].join(', ');
  const bound = params as BindParams;
  const total = numberColumn(selectOne(db, `SELECT count(*) AS n FROM ${table.table} t${where}`, bound) ?? {}, 'n');
  const rows = selectAll(db, `SELECT t.* FROM ${table.table} t${where} ORDER BY ${order} LIMIT ? OFFSET ?`, [...params, query.limit, (query.page - 1) * query.limit]);
  return { rows, total };
}

function conditionOf(field: CollectionField, filter: CollectionFilter): string {
  const one = (): string => {
    switch (filter.operator) {
      case 'eq':
        return `${field.sql} = ?`;
      case 'ne':
        return `${field.sql} <> ?`;
      case 'like':
        // A substring, case-insensitive for ASCII (SQLite's LIKE), wildcards in the value taken literally.
        return `${field.sql} LIKE ? ESCAPE '\\'`;
      default:
        return `${field.sql} ${COMPARISON[filter.operator]} ?`;
    }
  };
  const joiner = filter.operator === 'eq' || filter.operator === 'like' ? ' OR ' : ' AND ';
  return `(${filter.values.map(one).join(joiner)})`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
