/**
 * ST 0601 packets without an item the rules make mandatory. MISB ST 0601
 * makes three items mandatory in every UAS Datalink LS packet: 1 (Checksum),
 * 2 (Precision Time Stamp) and 65 (UAS Datalink LS Version Number); a
 * profile may add more (`mandatoryTags`). The list is the check's own, so the
 * decoder's `klv-missing-mandatory` problems (fixed to 1, 2, 65) are not used.
 * One violation per packet and missing tag.
 */
import { defineCheck, ST0601_MANDATORY_TAGS, ST0601_MAX_TAG, st0601Item } from '@klvscope/core';
import * as z from 'zod/mini';
import { countOf, klvPacketLabel } from './klv-labels.js';

export const klvMandatoryFieldErrors = defineCheck({
  id: 'klv-mandatory-field-errors',
  version: '1.1.0',
  title: 'KLV mandatory items',
  description: 'One violation per ST 0601 packet and missing mandatory item (default 1, 2 and 65; the rules may add tags). Not applicable without ST 0601.',
  rules: z.object({
    mandatoryTags: z._default(
      z.array(z.number().check(z.int(), z.minimum(1), z.maximum(ST0601_MAX_TAG))).check(z.describe('ST 0601 items every packet must carry: 1 (Checksum), 2 (Precision Time Stamp), 65 (LS Version Number) per MISB ST 0601; add tags to enforce a profile (MISB ST 0902 lists a minimum set)')),
      [...ST0601_MANDATORY_TAGS],
    ),
  }),
  consumes: ['klv-packet', 'metadata-packet'],
  create(ctx) {
    const tags = [...new Set(ctx.rules.mandatoryTags)].sort((a, b) => a - b);
    const describe = tags.map((tag) => {
      const name = st0601Item(tag)?.name ?? `tag ${tag}`;
      const byStandard = ST0601_MANDATORY_TAGS.includes(tag);
      return { tag, text: `mandatory item ${tag} (${name}) missing`, citation: byStandard ? `MISB ST 0601 item ${tag} (mandatory)` : `rules: mandatoryTags (ST 0601 item ${tag})` };
    });
    // Items 1, 2 and 65 show in a packet's own fields (checksum, time stamp, version) when present and decodable:
    // with no other tag required, a packet that has all three needs no look at its items.
    const standardTagsOnly = tags.every((tag) => ST0601_MANDATORY_TAGS.includes(tag));
    let packets = 0;
    /** The number of the last packet carrying each tag the rules may name. */
    const lastCarriedIn = new Float64Array(ST0601_MAX_TAG + 1);
    return {
      'metadata-packet'(obs) {
        if (obs.standard !== 'MISB ST 0601') return;
        packets++;
        if (standardTagsOnly && obs.checksum?.present === true && obs.timestampMicros !== null && obs.version !== null) return;
        // One indexed pass over the items, then one look per wanted tag: this runs for every packet.
        const items = obs.items;
        for (let i = 0; i < items.length; i++) {
          const tag = items[i].tag;
          if (tag <= ST0601_MAX_TAG) lastCarriedIn[tag] = packets;
        }
        for (let w = 0; w < describe.length; w++) {
          const want = describe[w];
          if (lastCarriedIn[want.tag] === packets) continue;
          ctx.point(obs, {
            message: `${klvPacketLabel(obs.pid, obs.klvIndex)}: ${want.text}`,
            violation: true,
            severity: 'error',
            citation: want.citation,
            type: 'klv-missing-mandatory',
          });
        }
      },
      finish() {
        const klvPackets = ctx.observed('klv-packet');
        if (klvPackets === 0) ctx.notApplicable('no KLV in this source');
        else if (packets === 0) ctx.notApplicable(`no ST 0601 packet among ${countOf(klvPackets, 'KLV packet')}`);
      },
    };
  },
});
