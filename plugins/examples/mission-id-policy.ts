/**
 * An example of a check written by another team: "every ST 0601 packet
 * carries a Mission ID (item 3) that follows our naming rule". It shows the
 * whole contract: an id, a version, a rule slice with defaults, the
 * observations it consumes, per-PID state, points with a citation, and a
 * summary reason. Its rule slice is built with classic `zod` on purpose: a
 * slice may be built with `zod` or `zod/mini` (as the built-in checks are,
 * for start-up time), and both are validated and printed alike. Load it
 * through the configuration:
 *
 *   klvscope.config.json: { "plugins": ["./plugins/examples/mission-id-policy.ts"] }
 *
 * (a .ts module loads when klvscope runs under tsx, as in the tests; compile
 * it to .js for the bundled CLI — see docs/writing-a-check.md).
 */
import { defineCheck } from '@klvscope/core';
import { z } from 'zod';

const MISSION_ID_TAG = 3;

export const missionIdPolicy = defineCheck({
  id: 'team-mission-id-policy',
  version: '1.0.0',
  title: 'Mission ID follows the team naming rule',
  description: 'Every ST 0601 packet carries item 3 (Mission ID) matching the configured pattern.',
  rules: z.object({
    pattern: z.string().default('^[A-Z0-9_-]{3,32}$').describe('regular expression the Mission ID must match (team policy, not a MISB rule)'),
    required: z.boolean().default(true).describe('whether a packet without item 3 breaks the rule'),
  }),
  consumes: ['metadata-packet'],
  create(ctx) {
    const pattern = new RegExp(ctx.rules.pattern);
    let st0601Packets = 0;
    return {
      'metadata-packet'(packet) {
        if (packet.standard !== 'MISB ST 0601') return;
        st0601Packets++;
        const item = packet.items.find((i) => i.tag === MISSION_ID_TAG);
        if (!item) {
          if (ctx.rules.required) {
            ctx.point(packet, { message: 'no Mission ID (item 3)', violation: true, severity: 'warning', citation: 'team policy; MISB ST 0601 item 3', type: 'mission-id-missing' });
          }
          return;
        }
        const value = typeof item.value === 'string' ? item.value : String(item.value);
        if (!pattern.test(value)) {
          ctx.point(packet, { message: `Mission ID '${value}' does not match ${ctx.rules.pattern}`, violation: true, severity: 'warning', citation: 'team policy', type: 'mission-id-format' });
        }
      },
      finish() {
        if (st0601Packets === 0) ctx.notApplicable('no ST 0601 packet in this source');
      },
    };
  },
});

export default missionIdPolicy;
