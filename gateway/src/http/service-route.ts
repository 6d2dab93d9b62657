/**
 * A route of a service (inspection, relay) as plain data: method, path, zod schemas
 * for what it reads, and a handler that gets the parsed input. The same
 * objects are mounted on Fastify (route-registration.ts) and, later, turned
 * into the OpenAPI document (`z.toJSONSchema` of each schema), so a route's
 * contract is written once. A route file exports a RouteModule: a function
 * from the service's dependencies to its routes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { $ZodType, output } from 'zod/v4/core';
import type { InspectionDeps } from '../inspection/inspection-deps.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answered without the X-API-Key header (spec "Authentication" 1). */
    public?: boolean;
  }
}

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSchemas {
  params?: $ZodType;
  query?: $ZodType;
  body?: $ZodType;
  /** The success body, for the OpenAPI document; not checked at run time. */
  response?: $ZodType;
}

type Parsed<S> = S extends $ZodType ? output<S> : undefined;

export interface RouteInput<S extends RouteSchemas> {
  params: Parsed<S['params']>;
  query: Parsed<S['query']>;
  body: Parsed<S['body']>;
  /** For what the schemas do not cover (headers, the raw stream). */
  request: FastifyRequest;
  /** For a handler that answers itself (a stream, a header); it returns the reply then. */
  reply: FastifyReply;
}

export interface InspectionRoute<S extends RouteSchemas = RouteSchemas> {
  method: RouteMethod;
  /** Under /api/v1, in Fastify's syntax: '/sessions/:id'. */
  path: string;
  summary: string;
  /** Answered without the API key: only health, version, openapi.json and playback. */
  public?: boolean;
  /** The status of a success with a body (default 200); a handler returning undefined answers 204. */
  status?: 200 | 201 | 202;
  schemas: S;
  // A method, not a property: a route with narrower schemas still fits InspectionRoute<RouteSchemas>.
  handle(input: RouteInput<S>): unknown;
}

/** Keeps the schemas' types for the handler's input. */
export function defineRoute<S extends RouteSchemas>(route: InspectionRoute<S>): InspectionRoute<S> {
  return route;
}

/** What a route file exports. */
export type RouteModule = (deps: InspectionDeps) => readonly InspectionRoute[];
