/**
 * Every error the service answers, as one JSON body (DESIGN.md "gateway"):
 * `{"error":{"code":"...","message":"...","details":...}}`. Errors of our
 * packages bring their stable code; Fastify's own errors are translated to
 * ours first; anything else is a 500 that says nothing about itself (the
 * real error goes to the log under the request id the body gives).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { statusOfCode, type ErrorStatus } from './error-status.js';
import type { InspectionErrorCode } from '../inspection/inspection-error.js';

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export interface ErrorResponse {
  status: ErrorStatus;
  body: ErrorBody;
  /** True for a 500: the caller logs the original error, which the body does not show. */
  internal: boolean;
}

/** Fastify's codes for what the client did wrong, as ours. */
const FRAMEWORK_CODES: Readonly<Record<string, InspectionErrorCode>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'ERR_MALFORMED_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'ERR_MALFORMED_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'ERR_BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'ERR_UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_NOT_FOUND: 'ERR_ROUTE_NOT_FOUND',
};

const FRAMEWORK_MESSAGES: Partial<Record<InspectionErrorCode, string>> = {
  ERR_MALFORMED_JSON: 'the request body is not valid JSON',
  ERR_UNSUPPORTED_MEDIA_TYPE: 'the request body must be JSON (Content-Type: application/json)',
};

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  details?: unknown;
  statusCode?: unknown;
  toJSON?: unknown;
}

export interface ErrorContext {
  requestId?: string;
  bodyLimitBytes?: number;
}

export function errorBody(code: string, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export function errorResponse(error: unknown, context: ErrorContext = {}): ErrorResponse {
  const e = (typeof error === 'object' && error !== null ? error : {}) as ErrorLike;
  const rawCode = typeof e.code === 'string' ? e.code : undefined;
  if (rawCode?.startsWith('FST_')) return frameworkResponse(rawCode, e, context);
  const status = statusOfCode(rawCode);
  if (status >= 500 && status !== 503) return internalResponse(context);
  const json = typeof e.toJSON === 'function' ? (e.toJSON as () => ErrorLike)() : e;
  const message = typeof json.message === 'string' ? json.message : String(rawCode);
  return { status, body: errorBody(rawCode as string, message, json.details), internal: false };
}

function frameworkResponse(fastifyCode: string, e: ErrorLike, context: ErrorContext): ErrorResponse {
  const code = FRAMEWORK_CODES[fastifyCode];
  if (code === 'ERR_BODY_TOO_LARGE') {
    const limit = context.bodyLimitBytes;
    const message = limit === undefined ? 'the request body is too large' : `the request body is over the limit of ${limit} bytes`;
    return { status: 413, body: errorBody(code, message, limit === undefined ? undefined : { limitBytes: limit }), internal: false };
  }
  if (code !== undefined) {
    return { status: statusOfCode(code), body: errorBody(code, FRAMEWORK_MESSAGES[code] ?? String(e.message)), internal: false };
  }
  // Fastify's other client errors (a bad URL escape, a Content-Length that lies) name only the request.
  const statusCode = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (statusCode >= 400 && statusCode < 500) {
    return { status: 400, body: errorBody('ERR_BAD_REQUEST', String(e.message), { reason: fastifyCode }), internal: false };
  }
  return internalResponse(context);
}

function internalResponse(context: ErrorContext): ErrorResponse {
  const details = context.requestId === undefined ? undefined : { requestId: context.requestId };
  return { status: 500, body: errorBody('ERR_INTERNAL', 'internal error: the service log has the details', details), internal: true };
}

/** Answers an error on a reply: the one body, and a log line for a 500. */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const response = errorResponse(error, { requestId: request.id, bodyLimitBytes: request.routeOptions.bodyLimit });
  if (response.internal) request.log.error({ err: error }, 'request failed');
  return reply.code(response.status).type('application/json; charset=utf-8').send(response.body);
}

/** The error and not-found handlers of the whole service. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody('ERR_ROUTE_NOT_FOUND', `no route for ${request.method} ${request.url.split('?')[0]}`, { method: request.method, path: request.url.split('?')[0] })),
  );
}
