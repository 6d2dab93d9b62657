/** A file hash in a path: the SHA-256 of the content, 64 lower-case hex digits (anything else is 400, not a search). */
import * as z from 'zod/mini';

export const fileHashSchema = z.string().check(z.regex(/^[0-9a-f]{64}$/, 'must be a file hash: 64 lower-case hex digits'));

export const fileHashParams = z.object({ hash: fileHashSchema });
