/**
 * Parses a request's path parameters, query and body with the route's zod
 * schemas. A failure is one 400 (ERR_INVALID_FIELD) naming every offending
 * field with where it was (`body`, `query`, `params`), so a client can point
 * at the field without parsing the message.
 */
import type { FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import type { $ZodIssue, $ZodType } from 'zod/v4/core';
import { ensureEnglishZodMessages } from '@klvscope/core';
import { InspectionError } from '../inspection/inspection-error.js';
import type { RouteSchemas } from './service-route.js';

export type RequestPart = 'params' | 'query' | 'body';

export interface FieldProblem {
  in: RequestPart;
  /** Dotted path inside that part (`jobs.concurrency`, `browseRoots[1]`); '' for the part as a whole. */
  field: string;
  message: string;
}

export interface ParsedInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

export function parseRouteInput(schemas: RouteSchemas, request: FastifyRequest): ParsedInput {
  ensureEnglishZodMessages();
  const problems: FieldProblem[] = [];
  const parse = (part: RequestPart, schema: $ZodType | undefined, value: unknown): unknown => {
    if (schema === undefined) return undefined;
    const result = z.safeParse(schema, value);
    if (result.success) return result.data;
    problems.push(...result.error.issues.flatMap((issue) => fieldProblems(part, issue)));
    return undefined;
  };
  const input = { params: parse('params', schemas.params, request.params), query: parse('query', schemas.query, request.query), body: parse('body', schemas.body, request.body) };
  if (problems.length > 0) throw invalidFields(problems);
  return input;
}

/** One part checked against a schema by a handler (e.g. a row merged with a PATCH): its value, or the 400 naming each field. */
export function parsePart<T>(part: RequestPart, schema: $ZodType<T>, value: unknown): T {
  ensureEnglishZodMessages();
  const result = z.safeParse(schema, value);
  if (!result.success) throw invalidFields(result.error.issues.flatMap((issue) => fieldProblems(part, issue)));
  return result.data;
}

/** The 400 for fields a handler found wrong itself (e.g. after merging a patch). */
export function invalidFields(problems: readonly FieldProblem[]): InspectionError {
  const lines = problems.map((p) => `${p.field === '' ? p.in : `${p.in}.${p.field}`}: ${p.message}`);
  return new InspectionError('ERR_INVALID_FIELD', `invalid request: ${lines.join('; ')}`, { fields: problems });
}

/** zod issues of one part as problems; an unknown key is named as the field it is. */
export function fieldProblems(part: RequestPart, issue: $ZodIssue): FieldProblem[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ in: part, field: formatPath([...issue.path, key]), message: 'unknown field' }));
  }
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    // The alternative that got furthest into the value is the one the client meant: name its fields, not "invalid input".
    const depth = (issues: readonly $ZodIssue[]): number => Math.max(...issues.map((i) => i.path.length));
    const meant = issue.errors.reduce((best, branch) => (depth(branch) > depth(best) ? branch : best));
    if (depth(meant) > 0) return meant.flatMap((inner) => fieldProblems(part, { ...inner, path: [...issue.path, ...inner.path] }));
  }
  return [{ in: part, field: formatPath(issue.path), message: issue.message }];
}

export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}
