/** ST 0601 packets without an item the rules make mandatory (MISB ST 0601: items 1, 2 and 65). */
import { defineCheck } from '@klvscope/core';
import { z } from 'zod';
import { hexPid } from './interval-points.js';

export const klvMandatoryFieldErrors = defineCheck({
  id: 'klv-mandatory-field-errors',
  version: '1.0.0',
  title: 'KLV mandatory items',
  description: 'One violation per ST 0601 packet and missing mandatory item.',
  rules: z.object({
    mandatoryTags: z
      .array(z.number().int().min(1).max(143))
      .default([1, 2, 65])
      .describe('ST 0601 items every packet must carry: 1 (checksum), 2 (precision time stamp), 65 (version) per MISB ST 0601; add more as a policy'),
  }),
  consumes: ['metadata-packet'],
  create(ctx) {
    let packets = 0;
    return {
      'metadata-packet'(obs) {
        if (obs.standard !== 'MISB ST 0601') return;
        packets++;
        const present = new Set(obs.items.map((i) => i.tag));
        for (const tag of ctx.rules.mandatoryTags) {
          if (present.has(tag)) continue;
          ctx.point(obs, {
            message: `KLV PID ${hexPid(obs.pid)} packet ${obs.klvIndex}: mandatory item ${tag} missing`,
            violation: true,
            citation: 'MISB ST 0601 (mandatory items)',
            type: 'missing-mandatory',
          });
        }
      },
      finish() {
        if (packets === 0) ctx.notApplicable('no ST 0601 packet in this source');
      },
    };
  },
});
