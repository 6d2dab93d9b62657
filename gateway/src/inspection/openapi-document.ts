/**
 * The OpenAPI 3.1 document of the automation/export subset (spec
 * "Versioning" 3: every route under /automation: the file session and
 * inspect, file lookup, cached stages, ingest runs, and the nine raw dataset
 * exports). Built from the routes themselves: each schema a route validates
 * with is turned into JSON Schema by zod, so the document cannot drift from
 * what the service accepts.
 */
import { DATASET_MEDIA_TYPES } from '@klvscope/core/store';
import * as z from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import type { InspectionRoute } from '../http/service-route.js';
import { API_PREFIX } from './service-address.js';

/** The routes the document describes: the automation and export subset. */
function isAutomationRoute(route: Pick<InspectionRoute, 'path'>): boolean {
  return route.path.startsWith('/automation/');
}

export type JsonSchema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

export const ERROR_BODY: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, details: {} },
    },
  },
};

/** The error statuses every protected route may answer, with what each means here. */
const ERROR_RESPONSES: Readonly<Record<string, string>> = {
  '400': 'malformed JSON or an invalid field (named in details)',
  '401': 'missing or wrong X-API-Key',
  '403': 'a path outside the browse roots',
  '404': 'no such file hash, stage, ingest run or dataset',
  '409': 'the state does not allow it (e.g. a run not completed)',
  '422': 'the file cannot be read or is not MPEG-TS',
  '500': 'an internal error (no details)',
};

/** Media types of the raw dataset exports (`format` query parameter), without their parameters. */
const DATASET_CONTENT_TYPES = Object.values(DATASET_MEDIA_TYPES).map((type) => type.split(';')[0]);

/**
 * `scope` 'every route' describes the whole interface in the same form: not
 * published (docs/rest.md is the reference), what the fuzz tests make requests from.
 */
export function buildOpenApiDocument(routes: readonly InspectionRoute[], version: string, scope: 'automation' | 'every route' = 'automation'): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of scope === 'automation' ? routes.filter(isAutomationRoute) : routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'klvscope inspection service: automation and export',
      version,
      description:
        'The stable automation/export subset of the local inspection service (loopback only). It is not a complete description of the interface; see docs/rest.md.',
    },
    servers: [{ url: API_PREFIX }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: { Error: ERROR_BODY },
    },
    paths,
  };
}

function operationOf(route: InspectionRoute): JsonSchema {
  const operation: JsonSchema = {
    summary: route.summary,
    operationId: operationIdOf(route),
    parameters: [...parametersOf(route.schemas.params, 'path'), ...parametersOf(route.schemas.query, 'query')],
    responses: responsesOf(route),
  };
  if (route.schemas.body) {
    operation.requestBody = { required: true, content: { 'application/json': { schema: jsonSchemaOf(route.schemas.body, 'input') } } };
  }
  return operation;
}

function responsesOf(route: InspectionRoute): JsonSchema {
  const status = String(route.status ?? 200);
  const body = route.schemas.response ? jsonSchemaOf(route.schemas.response, 'output') : {};
  const dataset = route.path.includes('/ingest-runs/:id/');
  const content = dataset ? Object.fromEntries(DATASET_CONTENT_TYPES.map((type) => [type, type === 'application/json' ? { schema: body } : {}])) : { 'application/json': { schema: body } };
  const responses: JsonSchema = { [status]: { description: 'success', content } };
  for (const [code, description] of Object.entries(ERROR_RESPONSES)) {
    responses[code] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  return responses;
}

export function parametersOf(schema: $ZodType | undefined, place: 'path' | 'query'): Parameter[] {
  if (!schema) return [];
  const json = jsonSchemaOf(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    const parameter: Parameter = { name, in: place, required: place === 'path' || required.has(name), schema: rest };
    if (typeof description === 'string') parameter.description = description;
    return parameter;
  });
}

export function jsonSchemaOf(schema: $ZodType, io: 'input' | 'output'): JsonSchema {
  // Query values arrive as text and are coerced: their input side is what a client sends.
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** `GET /automation/files/:hash/ingest-runs/latest` -> `getAutomationFilesHashIngestRunsLatest`. */
export function operationIdOf(route: InspectionRoute): string {
  const words = route.path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1));
  return `${route.method.toLowerCase()}${words.join('')}`;
}
