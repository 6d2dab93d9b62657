/** The public health and version endpoints (spec "Public"). */
import { PARSER_VERSION } from '@klvscope/core/workflow';
import * as z from 'zod/mini';
import { defineRoute, type RouteModule } from '../../http/service-route.js';

export const healthSchema = z.object({
  status: z.literal('ok'),
  uptimeSeconds: z.number(),
});

export const versionSchema = z.object({
  name: z.literal('klvscope'),
  /** The application's version. */
  version: z.string(),
  /** Bumped when the demuxer or decoders change what they emit: cached stages of another parser version are not reused. */
  parserVersion: z.string(),
  apiVersion: z.literal('v1'),
  node: z.string(),
});

export const systemRoutes: RouteModule = (deps) => [
  defineRoute({
    method: 'GET',
    path: '/health',
    summary: 'simple health payload',
    public: true,
    schemas: { response: healthSchema },
    handle: (): z.output<typeof healthSchema> => ({ status: 'ok', uptimeSeconds: Math.round((deps.clock() - deps.startedAtMs) / 1000) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/version',
    summary: 'current application version information',
    public: true,
    schemas: { response: versionSchema },
    handle: (): z.output<typeof versionSchema> => ({ name: 'klvscope', version: deps.appVersion, parserVersion: PARSER_VERSION, apiVersion: 'v1', node: process.versions.node }),
  }),
];
