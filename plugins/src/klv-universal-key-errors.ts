/**
 * KLV packets whose universal key is not the MISB ST 0601 UAS Datalink LS
 * key (06 0E 2B 34 02 0B 01 01 0E 01 03 01 01 00 00 00), one point per
 * packet, rated as the decoder rates them:
 * - an unregistered key: an error (nobody can read the packet);
 * - the legacy EG 0104 Predator UAV Basic Universal Set: a warning (it is
 *   decoded, but STANAG 4609 wants ST 0601);
 * - another known MISB set (ST 0903 VMTI, ST 0102 security, ...): informational,
 *   not a violation: a stream may carry those beside ST 0601.
 * An item key that a universal set (EG 0104) does not define is reported by
 * the decoder as an unknown key too: it is an error of type
 * 'unknown-item-key' here, and its packet still counts under its own key.
 * The summary counts each kind in one sentence, so a file of 300 EG 0104
 * packets reads "300 EG 0104 (legacy) packets: not ST 0601", not 300 lines.
 */
import { defineCheck } from '@klvscope/core';
import { countOf, klvPacketLabel } from './klv-labels.js';

const ST0601_KEY_NAME = 'st0601-uas-datalink-ls';
const EG0104_KEY_NAME = 'eg0104-predator-uav-basic-us';

export const klvUniversalKeyErrors = defineCheck({
  id: 'klv-universal-key-errors',
  version: '1.1.0',
  title: 'KLV universal keys',
  description:
    'One point per KLV packet whose key is not the ST 0601 key: an error when unknown, a warning for EG 0104, informational (no violation) for another known MISB set.',
  consumes: ['klv-packet', 'klv-error'],
  create(ctx) {
    let klvPackets = 0;
    let st0601 = 0;
    let legacy = 0;
    let unknown = 0;
    let otherMisb = 0;
    let unknownItems = 0;
    return {
      'klv-packet'(obs) {
        klvPackets++;
        if (obs.keyName === ST0601_KEY_NAME) st0601++;
      },
      'klv-error'(obs) {
        if (obs.type !== 'klv-unknown-key' && obs.type !== 'klv-legacy-set' && obs.type !== 'klv-undecoded-set') return;
        // The packet's own key comes with its hex in the details; an item key inside a universal set does not.
        const packetKey = typeof obs.details?.keyHex === 'string';
        // Runs stored before klvscope named these sets carry them as klv-unknown-key: EG 0104 by its key name, the others at info.
        const isLegacy = obs.type === 'klv-legacy-set' || obs.details?.keyName === EG0104_KEY_NAME;
        let type: string;
        if (!packetKey) {
          type = 'unknown-item-key';
          unknownItems++;
        } else if (isLegacy) {
          type = 'legacy-eg0104-key';
          legacy++;
        } else if (obs.type === 'klv-undecoded-set' || obs.severity === 'info') {
          type = 'other-misb-key';
          otherMisb++;
        } else {
          type = 'unknown-key';
          unknown++;
        }
        ctx.point(obs, {
          message: `${klvPacketLabel(obs.pid, obs.klvIndex)}: ${obs.message}`,
          violation: obs.severity !== 'info',
          severity: obs.severity,
          citation: obs.citation,
          type,
        });
      },
      finish() {
        if (klvPackets === 0) {
          ctx.notApplicable('no KLV in this source');
          return;
        }
        const parts: string[] = [];
        if (unknown > 0) parts.push(`${countOf(unknown, 'packet')} under an unknown key`);
        if (legacy > 0) parts.push(`${countOf(legacy, 'EG 0104 (legacy) packet')}: not ST 0601`);
        if (otherMisb > 0) parts.push(`${countOf(otherMisb, 'packet')} of other MISB sets (not violations)`);
        if (unknownItems > 0) parts.push(`${countOf(unknownItems, 'unknown item key')} inside universal sets`);
        if (st0601 === klvPackets) parts.push(`all ${countOf(klvPackets, 'KLV packet')} under the ST 0601 key`);
        else if (st0601 > 0 || parts.length === 0) parts.push(`${st0601} of ${klvPackets} KLV packets under the ST 0601 key`);
        ctx.setVerdict(unknown + unknownItems > 0 ? 'fail' : legacy > 0 ? 'warn' : 'pass', parts.join('; '));
      },
    };
  },
});
