/**
 * What a licence says: which node, for whom, which features, from when,
 * until when. Validated strictly on both sides: the vendor cannot sign a
 * payload this parser would refuse, and a service rejects any field it does
 * not know (a newer format bumps `v`).
 */
import * as z from 'zod/mini';
import { ensureEnglishZodMessages } from '@klvscope/core';
import { NODE_ID_PATTERN } from './node-identity.js';

export const LICENCE_FORMAT_VERSION = 1;

/** Lower-case names such as `live`, `export.ndjson`: stable identifiers, not prose. */
const FEATURE_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const MAX_FEATURES = 64;
const MAX_LICENSEE_LENGTH = 200;

const licensee = z.string().check(
  z.minLength(1),
  z.maxLength(MAX_LICENSEE_LENGTH),
  // Printed in status lines and logs: no control characters, no padding.
  z.regex(/^[^\p{Cc}]+$/u, 'must not contain control characters'),
  z.refine((s) => s.trim() === s, 'must not start or end with white space'),
);

const feature = z.string().check(z.regex(FEATURE_PATTERN, 'must be lower-case letters, digits, ".", "_" or "-" (at most 64)'));

// UTC only ("Z"): one spelling per instant, so tokens compare and print plainly.
const instant = z.iso.datetime();

const payloadSchema = z
  .strictObject({
    v: z.literal(LICENCE_FORMAT_VERSION),
    nodeId: z.string().check(z.regex(NODE_ID_PATTERN, 'must be node- and 32 lower-case hex digits')),
    licensee,
    features: z.array(feature).check(
      z.maxLength(MAX_FEATURES),
      z.refine((list) => new Set(list).size === list.length, 'must not repeat a feature'),
    ),
    issuedAt: instant,
    /** null: perpetual. */
    expiresAt: z.nullable(instant),
  })
  .check(z.refine((p) => p.expiresAt === null || Date.parse(p.expiresAt) > Date.parse(p.issuedAt), { message: 'must be later than issuedAt', path: ['expiresAt'] }));

export type LicencePayload = z.output<typeof payloadSchema>;

export type PayloadCheck = { ok: true; payload: LicencePayload } | { ok: false; reason: string };

/** Never throws: a verdict for anything, including non-objects. */
export function checkLicencePayload(value: unknown): PayloadCheck {
  ensureEnglishZodMessages();
  const parsed = payloadSchema.safeParse(value);
  if (parsed.success) return { ok: true, payload: parsed.data };
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`);
  return { ok: false, reason: problems.join('; ') };
}
