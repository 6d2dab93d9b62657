/**
 * The OpenAPI 3.1 document of the relay (what the docs page shows): every
 * route, each schema it validates with turned into JSON Schema by zod, so
 * the page cannot drift from what the relay accepts.
 */
import type { InspectionRoute } from '../http/service-route.js';
import { ERROR_BODY, jsonSchemaOf, operationIdOf, parametersOf, type JsonSchema } from '../inspection/openapi-document.js';
import { RELAY_API_PREFIX } from './relay-address.js';
import { TOTAL_COUNT_HEADER } from './routes/platform-routes.js';

const ERROR_RESPONSES: Readonly<Record<string, string>> = {
  '400': 'malformed JSON, or a field, parameter or query value refused (named in details.fields)',
  '401': 'missing or wrong X-API-Key (changes only)',
  '404': 'no such platform, channel or record',
  '500': 'an internal error (no details)',
};

export function buildRelayOpenApiDocument(routes: readonly InspectionRoute[], version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'klvscope channel relay', version, description: 'Platforms and channels that relay UDP, their bitrates and stream detection (docs/relay.md). Reads are open on loopback; changes need the X-API-Key header.' },
    servers: [{ url: RELAY_API_PREFIX }],
    components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } }, schemas: { Error: ERROR_BODY } },
    paths,
  };
}

function operationOf(route: InspectionRoute): JsonSchema {
  const status = route.method === 'DELETE' ? '204' : String(route.status ?? 200);
  const success: JsonSchema = status === '204' ? { description: 'deleted' } : { description: 'success', content: { 'application/json': { schema: route.schemas.response ? jsonSchemaOf(route.schemas.response, 'output') : {} } } };
  // A collection GET gives the rows matching its filters, all pages together, in a header (json-server's).
  if (route.method === 'GET' && route.summary.includes(TOTAL_COUNT_HEADER)) success.headers = { [TOTAL_COUNT_HEADER]: { description: 'rows matching the filters, all pages together', schema: { type: 'integer', minimum: 0 } } };
  const responses: JsonSchema = { [status]: success };
  for (const [code, description] of Object.entries(ERROR_RESPONSES)) {
    if (code === '401' && route.public === true) continue;
    responses[code] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  const operation: JsonSchema = {
    summary: route.summary,
    operationId: operationIdOf(route),
    parameters: [...parametersOf(route.schemas.params, 'path'), ...parametersOf(route.schemas.query, 'query')],
    responses,
  };
  if (route.public !== true) operation.security = [{ apiKey: [] }];
  if (route.schemas.body) operation.requestBody = { required: true, content: { 'application/json': { schema: jsonSchemaOf(route.schemas.body, 'input') } } };
  return operation;
}
