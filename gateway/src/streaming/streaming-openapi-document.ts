/**
 * The OpenAPI 3.1 document of the streaming module's three operations
 * (spec "Endpoints"), served at `/openapi.json` like the relay's: the
 * command body's schema is the one the route validates with, turned into
 * JSON Schema by zod, so the document cannot drift from what it accepts.
 */
import type { $ZodType } from 'zod/v4/core';
import { ERROR_BODY, jsonSchemaOf, type JsonSchema } from '../inspection/openapi-document.js';

export const STREAMING_OPENAPI_PATH = '/openapi.json';

const errorResponse = (description: string): JsonSchema => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

export function buildStreamingOpenApiDocument(commandSchema: $ZodType, version: string): JsonSchema {
  return {
    openapi: '3.1.0',
    info: { title: 'klvscope streaming module', version, description: 'The stream and its recorder (docs/streaming.md). POST /command needs Basic credentials.' },
    components: { securitySchemes: { basic: { type: 'http', scheme: 'basic' } }, schemas: { Error: ERROR_BODY } },
    paths: {
      '/info': { get: { operationId: 'getInfo', summary: 'the module and its stream', parameters: [], responses: { '200': { description: 'success' } } } },
      '/recorderState': { get: { operationId: 'getRecorderState', summary: 'the recorder', parameters: [], responses: { '200': { description: 'success' } } } },
      '/command': {
        post: {
          operationId: 'postCommand',
          summary: 'starts or stops the stream or the recorder, or ends the module',
          security: [{ basic: [] }],
          parameters: [],
          requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(commandSchema, 'input') } } },
          responses: { '200': { description: 'success' }, '400': errorResponse('malformed JSON or an invalid field'), '401': errorResponse('missing or wrong credentials'), '409': errorResponse('the state does not allow it'), '500': errorResponse('an internal error (no details)') },
        },
      },
    },
  };
}
