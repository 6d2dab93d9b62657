/**
 * GET /playback/{token}: the recording of a file session as `video/mp2t`,
 * public (the token is the credential), with HTTP Range requests so a player
 * can seek. An unknown or expired token is 404.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import * as z from 'zod/mini';
import { parseByteRange } from '../byte-range.js';
import { InspectionError } from '../inspection-error.js';
import { defineRoute, type RouteModule } from '../../http/service-route.js';

const paramsSchema = z.object({ token: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'not a playback token')) });

export const playbackRoutes: RouteModule = (deps) => [
  defineRoute({
    method: 'GET',
    path: '/playback/:token',
    summary: 'serves a playback stream for an opaque local token (video/mp2t, Range requests)',
    public: true,
    schemas: { params: paramsSchema },
    handle: async ({ params, request, reply }) => {
      const grant = deps.playback.find(params.token);
      if (!grant) throw new InspectionError('ERR_PLAYBACK_TOKEN_UNKNOWN', 'unknown or expired playback token');
      const { size } = await stat(grant.path);
      void reply.header('accept-ranges', 'bytes').header('content-type', 'video/mp2t').header('cache-control', 'no-store');
      const range = parseByteRange(request.headers.range, size);
      if (range.kind === 'unsatisfiable') {
        return reply.code(416).header('content-range', `bytes */${size}`).send();
      }
      if (range.kind === 'range') {
        void reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
          .header('content-length', range.end - range.start + 1);
        return reply.send(createReadStream(grant.path, { start: range.start, end: range.end }));
      }
      void reply.header('content-length', size);
      return reply.send(createReadStream(grant.path));
    },
  }),
];
