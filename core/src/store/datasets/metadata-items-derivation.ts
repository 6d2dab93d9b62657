/**
 * Metadata packets kept as their triplet. A metadata packet's items are what
 * the KLV decoder makes of the klv-packet emitted just before it
 * (klv-packet-observer.ts): storing them as JSON text (about 2.6 KB a packet)
 * cost more than the rest of the ingest's writing, and reading them back
 * (JSON.parse) more than the KLV decoder takes to decode the triplet again.
 * So when the writer is given a packet the observer decoded from the
 * klv-packet it stored at the `seq` before (`tripletOf`: the very object),
 * the packet's `items` column is NULL, and reads decode the items again from
 * that row's `raw` bytes with the same decoders. Any other packet keeps its
 * items as JSON, so what comes back is always what was written.
 *
 * The items come from the decoders of the klvscope that reads the run: the
 * compatibility key's parser version (workflow/compatibility-key.ts) changes
 * when they change what they make, so a cached ingest made by other
 * decoders is not reused.
 */
import type { KlvItem, KlvPacketObservation, MetadataPacketObservation } from '../../kernel/observations.js';
import { metadataItemsOfTriplet, tripletOf } from '../../klv/klv-packet-observer.js';
import { DatasetError } from './dataset-error.js';

/** The key of the ST 0601 packets, whose items the dataset writers take from the triplet's bytes as they are. */
export const ST0601_KEY_NAME = 'st0601-uas-datalink-ls';

/** A select-list expression giving the triplet of a packet stored without its items (NULL for the others). */
export const TRIPLET_OF_PACKET_SQL = 'CASE WHEN items IS NULL THEN (SELECT raw FROM klv_packet WHERE klv_packet.seq = metadata_packet.seq - 1) END';

/** Whether `packet` is what the observer decoded from `previous`, the klv-packet stored at the seq just before it. */
export function isDecodedFrom(packet: MetadataPacketObservation, previous: KlvPacketObservation | null): boolean {
  return previous !== null && tripletOf(packet) === previous;
}

/**
 * The items of a packet stored as its triplet, not yet decoded: a writer of text writes ST 0601 items from the
 * bytes (klv-items-text.ts), anything else decodes them.
 */
export class ItemsOfTriplet {
  constructor(
    readonly raw: Uint8Array | null,
    readonly keyName: string,
    readonly seq: number,
  ) {}

  decode(): KlvItem[] {
    return itemsFromTriplet(this.raw, this.keyName, this.seq);
  }
}

/** The items of a packet stored as its triplet. */
export function itemsFromTriplet(raw: Uint8Array | null, keyName: string, seq: number): KlvItem[] {
  const items = raw === null ? null : metadataItemsOfTriplet(raw, keyName);
  if (items === null) {
    throw new DatasetError('ERR_DATASET_UNSUPPORTED_KIND', `metadata packet ${seq} is stored as its triplet, but ${raw === null ? 'the triplet is missing' : `key ${keyName} has no decoder`}`, { seq, keyName });
  }
  return items;
}
