/**
 * GET /playback/{token}: the recording of a file session as `video/mp2t`,
 * public (the token is the credential), with HTTP Range requests so a player
 * can seek. An unknown or expired token is 404.
 *
 * `?video=h264` asks for the variant a browser plays (playback-transcode.ts):
 * the recording itself when its video is H.264, else its cached transcode,
 * 202 with the progress while ffmpeg makes it (poll again), 422
 * ERR_PLAYBACK_TRANSCODE_FAILED with ffmpeg's reason, 503
 * ERR_PLAYBACK_TRANSCODER_UNAVAILABLE without ffmpeg.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { parseByteRange } from '../byte-range.js';
import { InspectionError } from '../inspection-error.js';
import { defineRoute, type RouteModule } from '../../http/service-route.js';

const paramsSchema = z.object({ token: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'not a playback token')) });
const querySchema = z.object({ video: z.optional(z.enum(['h264'])) });
/** How soon the page should ask again while a transcode runs. */
const RETRY_AFTER_SECONDS = 1;

export const playbackRoutes: RouteModule = (deps) => [
  defineRoute({
    method: 'GET',
    path: '/playback/:token',
    summary: 'serves a playback stream for an opaque local token (video/mp2t, Range requests); ?video=h264: the H.264 variant (202 with progress while transcoding)',
    public: true,
    schemas: { params: paramsSchema, query: querySchema },
    handle: async ({ params, query, request, reply }) => {
      const grant = deps.playback.find(params.token);
      if (!grant) throw new InspectionError('ERR_PLAYBACK_TOKEN_UNKNOWN', 'unknown or expired playback token');
      if (query.video === undefined) return sendTransportStream(grant.path, request, reply);
      const answer = await deps.playbackTranscodes.request(grant.fileHash, grant.path);
      switch (answer.state) {
        case 'ready':
          return sendTransportStream(answer.path, request, reply);
        case 'transcoding':
          return reply
            .code(202)
            .header('retry-after', String(RETRY_AFTER_SECONDS))
            .header('cache-control', 'no-store')
            .send({ status: 'transcoding', video: 'h264', progress: answer.progress });
        case 'failed':
          throw new InspectionError('ERR_PLAYBACK_TRANSCODE_FAILED', answer.message);
        case 'unavailable':
          throw new InspectionError('ERR_PLAYBACK_TRANSCODER_UNAVAILABLE', answer.message);
      }
    },
  }),
];

function sendTransportStream(path: string, request: FastifyRequest, reply: FastifyReply) {
  return stat(path).then(({ size }) => {
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
      return reply.send(createReadStream(path, { start: range.start, end: range.end }));
    }
    void reply.header('content-length', size);
    return reply.send(createReadStream(path));
  });
}
