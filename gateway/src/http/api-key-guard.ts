/**
 * X-API-Key on every route not declared public (spec "Authentication").
 * The comparison is of SHA-256 digests with timingSafeEqual: equal lengths
 * always, so neither the key's content nor its length shows in the time a
 * refusal takes. A path no route has is not guarded: it answers 404 to
 * everyone, as there is nothing behind it to protect.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { API_KEY_HEADER } from './api-key.js';
import { InspectionError } from '../inspection/inspection-error.js';

/** What a refusal tells the client, so it can ask its user for the key. */
export const AUTH_REFUSAL_DETAILS = Object.freeze({ header: 'X-API-Key', authEnabled: true, authenticated: false });

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** A test of candidates against the key, in time that does not depend on either. */
export function apiKeyMatcher(key: string): (candidate: string) => boolean {
  const expected = digest(key);
  return (candidate) => timingSafeEqual(digest(candidate), expected);
}

export function installApiKeyGuard(app: FastifyInstance, key: string): void {
  const matches = apiKeyMatcher(key);
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.is404 || request.routeOptions.config.public === true) return done();
    const given = request.headers[API_KEY_HEADER];
    if (given === undefined || given === '') {
      return done(new InspectionError('ERR_API_KEY_MISSING', 'this endpoint needs the X-API-Key header', AUTH_REFUSAL_DETAILS));
    }
    // Node joins repeated custom headers into one string; an array would be a header it does not join.
    if (typeof given !== 'string' || !matches(given)) {
      return done(new InspectionError('ERR_API_KEY_WRONG', 'the X-API-Key header does not carry the API key of this service', AUTH_REFUSAL_DETAILS));
    }
    done();
  });
}
