/**
 * The JSON body parser the three services share: Fastify's own (with its
 * guards against prototype poisoning), except that an empty body is no
 * body. A bodyless DELETE, or a command given in the query, sent by a
 * client that sets `Content-Type: application/json` on every request, is
 * then judged by its route (no body where none is needed), not refused as
 * malformed JSON.
 */
import type { FastifyInstance } from 'fastify';

export function installJsonBodyParser(app: FastifyInstance, mediaTypes: readonly string[] = ['application/json']): void {
  const strict = app.getDefaultJsonParser('error', 'error');
  for (const mediaType of mediaTypes) {
    if (app.hasContentTypeParser(mediaType)) app.removeContentTypeParser(mediaType);
    app.addContentTypeParser(mediaType, { parseAs: 'string' }, (request, body, done) => {
      if (body === '') {
        done(null, undefined);
        return;
      }
      strict(request, body, done);
    });
  }
}
