/**
 * The request body of POST /license/import and POST /config/license:
 * `{ "token": "klv1...." }`. Only the shape is checked here; the token's
 * verdict comes from LicenceState.install, so a bad token is a 422 with its
 * reason rather than a 400.
 */
import * as z from 'zod/mini';
import { MAX_TOKEN_LENGTH } from './licence-token.js';

export const licenceImportBodySchema = z.strictObject({
  // A little room over the token limit for the newline or spaces a pasted token brings.
  token: z.string().check(z.minLength(1), z.maxLength(MAX_TOKEN_LENGTH + 64)),
});

export type LicenceImportBody = z.output<typeof licenceImportBodySchema>;
