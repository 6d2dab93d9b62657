/**
 * The query string of a generated collection GET (json-server's words):
 * `_limit` (default 100, at most MAX_COLLECTION_LIMIT), `_page` (from 1),
 * `_sort=a,b` and `_order=asc,desc`, `FIELD=V` (repeated: any of the values),
 * `FIELD_gte`, `FIELD_lte`, `FIELD_ne`, `FIELD_like` (repeated `_gte`,
 * `_lte`, `_ne`: all of them; repeated `FIELD` and `_like`: any of them). The zod schema lists
 * every parameter (so the OpenAPI document shows them and an unknown one is
 * 400 naming it); values are then read against each field's type here.
 */
import * as z from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { canonicalTime, type CollectionFilter, type CollectionQuery, type CollectionSort, type CollectionTable, type FilterOperator } from '@klvscope/core/store';
import { invalidFields, type FieldProblem } from '../http/request-validation.js';

export const DEFAULT_COLLECTION_LIMIT = 100;
/** A page is one answer in memory: 1000 rows keeps it small whatever the rows hold. */
export const MAX_COLLECTION_LIMIT = 1000;

const OPERATORS: readonly Exclude<FilterOperator, 'eq'>[] = ['gte', 'lte', 'ne', 'like'];
const queryValue = z.union([z.string(), z.array(z.string())]);

/** The query schema of a collection: the paging words and every filter of its fields. */
export function collectionQuerySchema(table: CollectionTable): $ZodType {
  const shape: Record<string, $ZodType> = {
    _limit: z.optional(z.string().check(z.describe(`rows per page, 1 to ${MAX_COLLECTION_LIMIT} (default ${DEFAULT_COLLECTION_LIMIT})`))),
    _page: z.optional(z.string().check(z.describe('page number, from 1'))),
    _sort: z.optional(z.string().check(z.describe('fields to sort on, comma-separated'))),
    _order: z.optional(z.string().check(z.describe('asc or desc for each field of _sort, comma-separated (one applies to all)'))),
  };
  for (const field of table.fields) {
    shape[field.field] = z.optional(queryValue.check(z.describe('equal to (repeated: any of)')));
    for (const operator of OPERATORS) shape[`${field.field}_${operator}`] = z.optional(queryValue.check(z.describe(operatorText(operator))));
  }
  // A relation (a platform's channels) is matched by equality only: it has no order to compare in.
  for (const name of Object.keys(table.relationFilters ?? {})) shape[name] = z.optional(queryValue.check(z.describe('has a related row of this id (repeated: any of)')));
  return z.strictObject(shape);
}

function operatorText(operator: Exclude<FilterOperator, 'eq'>): string {
  return { gte: 'greater than or equal to', lte: 'less than or equal to', ne: 'not equal to (repeated: none of)', like: 'contains, case-insensitive (% and _ literal)' }[operator];
}

/** The collection query of a parsed query object; a value of the wrong type is 400 naming its parameter. */
export function collectionQueryOf(table: CollectionTable, query: Record<string, string | string[] | undefined>): CollectionQuery {
  const problems: FieldProblem[] = [];
  const problem = (field: string, message: string): void => void problems.push({ in: 'query', field, message });
  const single = (name: string): string | undefined => {
    const value = query[name];
    if (Array.isArray(value)) {
      problem(name, 'given more than once');
      return undefined;
    }
    return value;
  };
  const whole = (name: string, min: number, max: number, fallback: number): number => {
    const text = single(name);
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < min || n > max) problem(name, `must be a whole number from ${min} to ${max}`);
    return n;
  };
  const limit = whole('_limit', 1, MAX_COLLECTION_LIMIT, DEFAULT_COLLECTION_LIMIT);
  const page = whole('_page', 1, 1_000_000, 1);
  const fields = new Map(table.fields.map((f) => [f.field, f]));
  const sort: CollectionSort[] = [];
  const sortText = single('_sort');
  // json-server takes the order in any case (lodash compares it lower-cased).
  const orders = (single('_order') ?? '').toLowerCase().split(',').filter(Boolean);
  if (sortText !== undefined) {
    const names = sortText.split(',');
    for (const name of names) if (!fields.has(name)) problem('_sort', `'${name}' is not a field to sort on (${[...fields.keys()].join(', ')})`);
    if (orders.length > 1 && orders.length !== names.length) problem('_order', `give one order, or one per field of _sort (${names.length})`);
    names.forEach((field, i) => sort.push({ field, descending: (orders.length === 1 ? orders[0] : orders[i]) === 'desc' }));
  }
  for (const order of orders) if (order !== 'asc' && order !== 'desc') problem('_order', `'${order}' is neither asc nor desc`);
  if (orders.length > 0 && sortText === undefined) problem('_order', 'needs _sort');
  const filters: CollectionFilter[] = [];
  for (const [key, raw] of Object.entries(query)) {
    if (key.startsWith('_') || raw === undefined) continue;
    const [name, suffix] = splitOperator(key);
    const operator: FilterOperator = suffix ?? 'eq';
    const values = Array.isArray(raw) ? raw : [raw];
    const field = fields.get(name);
    if (field?.type === 'integer' && operator !== 'like') {
      const bad = values.find((v) => !/^-?\d+$/.test(v));
      if (bad !== undefined) problem(key, `'${bad}' is not a whole number`);
      filters.push({ field: name, operator, values: values.map(Number) });
    } else if (field?.type === 'datetime' && operator !== 'like') {
      // A full date-time compares as a time: in the stored form; anything else (a date alone) compares as text, a prefix of the stored form.
      filters.push({ field: name, operator, values: values.map((v) => canonicalTime(v) ?? v) });
    } else {
      filters.push({ field: name, operator, values });
    }
  }
  if (problems.length > 0) throw invalidFields(problems);
  return { filters, sort, limit, page };
}

function splitOperator(key: string): [string, Exclude<FilterOperator, 'eq'> | undefined] {
  for (const operator of OPERATORS) if (key.endsWith(`_${operator}`)) return [key.slice(0, -operator.length - 1), operator];
  return [key, undefined];
}
