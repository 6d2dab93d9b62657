/**
 * The JSON body parser the three services share: Fastify's own (with its
 * guards against prototype poisoning), except that an empty body is no
 * body. A bodyless DELETE, or a command given in the query, sent by a
 * client that sets `Content-Type: application/json` on every request, is
 * then judged by its route (no body where none is needed), not refused as
 * malformed JSON. A string holding a lone surrogate is refused (400 naming
 * the field): it is not Unicode text, and would be stored as replacement
 * characters.
 */
import type { FastifyInstance } from 'fastify';
import { formatPath, invalidFields } from './request-validation.js';

export function installJsonBodyParser(app: FastifyInstance, mediaTypes: readonly string[] = ['application/json']): void {
  const strict = app.getDefaultJsonParser('error', 'error');
  for (const mediaType of mediaTypes) {
    if (app.hasContentTypeParser(mediaType)) app.removeContentTypeParser(mediaType);
    app.addContentTypeParser(mediaType, { parseAs: 'string' }, (request, raw, done) => {
      const body = typeof raw === 'string' ? raw : raw.toString('utf8');
      if (body === '') {
        done(null, undefined);
        return;
      }
      void strict(request, body, (error, value) => {
        if (error !== null) return done(error, undefined);
        const path = loneSurrogatePath(value, []);
        done(path === null ? null : invalidFields([{ in: 'body', field: formatPath(path), message: 'holds a lone surrogate: not Unicode text' }]), path === null ? value : undefined);
      });
    });
  }
}

/** Read by code points (the u flag), only a surrogate without its pair is one of category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Where the first string (or key) holding an unpaired UTF-16 surrogate is; null when every one is well formed. */
function loneSurrogatePath(value: unknown, path: PropertyKey[]): PropertyKey[] | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = loneSurrogatePath(value[i], [...path, i]);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) return [...path, key];
      const found = loneSurrogatePath(inner, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}
