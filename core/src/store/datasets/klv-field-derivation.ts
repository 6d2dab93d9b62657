/**
 * klv-field observations kept as their metadata packet's items. The KLV
 * observer emits a packet's fields right after it, one per top-level item in
 * order, each with the packet's PID, KLV index and position
 * (klv-packet-observer.ts): three quarters of a run's observations, each a
 * copy of what the packet's `items` column already holds. The writer stores
 * a packet's fields as a count beside it (`metadata_fields`: the packet's
 * seq, how many of its items followed it as fields, at the seqs after it);
 * replay and the klv/fields dataset make them again from the items. A field
 * that is not exactly the packet's next item, at the next seq, is stored as
 * a row of its own, so what comes back is always what was written.
 */
import type { Database, SqlValue, Statement } from 'sql.js';
import type { KlvFieldObservation, KlvItem, MetadataPacketObservation } from '../../kernel/observations.js';
import type { LocalSetItem } from '../../klv/local-set.js';
import { decodeSt0601ItemInto } from '../../klv/st0601-item.js';
import { St0601ItemFrames } from '../../klv/st0601-item-frames.js';
import { decodeJsonValue } from './lossless-json.js';
import { itemsFromTriplet, ST0601_KEY_NAME } from './metadata-items-derivation.js';
import { packedRows } from './observation-block-codec.js';
import { rowCodecOf, type DatasetRow, type ObservationRowCodec } from './observation-row-codec.js';

export const METADATA_FIELDS_TABLE = 'metadata_fields';

/** Whether `field` is exactly what the packet's item `index` makes as a klv-field observation (fieldOfItem). */
export function isFieldOfItem(field: KlvFieldObservation, packet: MetadataPacketObservation, index: number): boolean {
  const item = packet.items[index] as KlvItem | undefined;
  return (
    item !== undefined &&
    field.tag === item.tag &&
    field.name === item.name &&
    field.rawHex === item.rawHex &&
    Object.is(field.value, item.value) &&
    field.units === item.units &&
    field.pid === packet.pid &&
    field.klvIndex === packet.klvIndex &&
    field.offset === packet.offset &&
    field.packetIndex === packet.packetIndex &&
    Object.is(field.t, packet.t)
  );
}

/** The klv-field observation of one of the packet's items, as the KLV observer makes it. */
export function fieldOfItem(packet: MetadataPacketObservation, item: KlvItem): KlvFieldObservation {
  return {
    kind: 'klv-field',
    pid: packet.pid,
    klvIndex: packet.klvIndex,
    tag: item.tag,
    name: item.name,
    rawHex: item.rawHex,
    value: item.value,
    units: item.units,
    offset: packet.offset,
    packetIndex: packet.packetIndex,
    t: packet.t,
  };
}

/** How many klv-field observations a database keeps as items, and the seq after the last of them (0 for none). */
export function derivedFields(db: Database): { count: number; lastSeq: number } {
  const [result] = db.exec(`SELECT coalesce(sum(fields), 0), coalesce(max(seq + fields), 0) FROM ${METADATA_FIELDS_TABLE}`);
  const [count, lastSeq] = result.values[0] as [number, number];
  return { count, lastSeq };
}

/** Reads, in seq order, how many fields each packet keeps as items: `at(seq)` for ascending seqs. */
export class DerivedFieldCounts {
  private readonly statement: Statement;
  private next: [number, number] | null = null;
  private more = true;

  /** Of the packets after `afterSeq`. */
  constructor(db: Database, afterSeq = 0) {
    this.statement = db.prepare(`SELECT seq, fields FROM ${METADATA_FIELDS_TABLE} WHERE seq > ? ORDER BY seq`, [afterSeq]);
  }

  /** The fields kept as items by the packet at `seq` (0 when none); seqs must come in ascending order. */
  at(seq: number): number {
    while (this.more && (this.next === null || this.next[0] < seq)) {
      this.more = this.statement.step();
      this.next = this.more ? (this.statement.get() as [number, number]) : null;
    }
    return this.next !== null && this.next[0] === seq ? this.next[1] : 0;
  }

  free(): void {
    this.statement.free();
  }
}

const FIELD_CODEC = rowCodecOf('klv-field');

/** Where a packet is, as its fields repeat it: the same object for every field of the packet. */
export interface PacketPlace {
  readonly offset: number;
  readonly packetIndex: number;
  readonly t: number | null;
  readonly pid: number;
  readonly klvIndex: number;
}

/**
 * A klv/fields row made from its packet's item, given as these three rather than as a row object: a writer of text
 * uses them as they are (json-row-text.ts), and a reader that keeps rows makes the object (fieldRowOfItem). One
 * object is reused for every field of a packet: it holds the current field only while its step is being handled.
 */
export interface ItemField {
  seq: number;
  packet: PacketPlace;
  readonly item: KlvItem;
  /** Of an item of a packet kept as its ST 0601 triplet: the triplet, and where the item lies in it (its text can be written from the bytes). */
  readonly triplet?: Uint8Array | null;
  readonly span?: LocalSetItem | null;
}

/**
 * The field a read gives at each step of a packet: an item decoded with its packet, or an item of a packet kept as
 * its ST 0601 triplet, decoded only when `item` is read (a writer of text writes it from its bytes).
 */
class PacketField implements ItemField {
  seq = 0;
  span: LocalSetItem | null = null;
  #item: KlvItem | null = null;

  constructor(
    readonly packet: PacketPlace,
    readonly triplet: Uint8Array | null,
  ) {}

  /** The item, decoded as decodeSt0601 decodes its framed items. */
  get item(): KlvItem {
    if (this.#item === null) {
      const span = this.span as LocalSetItem;
      this.#item = decodeSt0601ItemInto(span.tag, this.triplet as Uint8Array, span.valueOffset, span.valueOffset + span.length, span.tagOffset, null);
    }
    return this.#item;
  }

  decoded(item: KlvItem): void {
    this.#item = item;
  }

  framed(span: LocalSetItem): void {
    this.span = span;
    this.#item = null;
  }
}

/** The dataset row of a field made from its packet's item (the fields of its observation, without `kind`). */
export function fieldRowOfItem({ seq, packet, item }: ItemField): DatasetRow {
  const { offset, packetIndex, t, pid, klvIndex } = packet;
  return { seq, offset, packetIndex, t, pid, klvIndex, tag: item.tag, name: item.name, rawHex: item.rawHex, value: item.value, units: item.units };
}

/**
 * The klv/fields dataset rows of one database after `afterSeq` (null: all),
 * in seq order: its stored field rows (as sql.js gives them, for the
 * klv-field codec) merged with the fields its packets keep as items (one
 * ItemField, changed at each step). An iterator, not a generator: a
 * generator's step per field (a million in a 2 GB run) cost about as much
 * as writing the field's text.
 */
export function klvFieldRows(db: Database, afterSeq: number | null): IterableIterator<SqlValue[] | ItemField> {
  return new KlvFieldRows(db, afterSeq ?? 0);
}

type PacketRow = [number, number, number, number, number | null, number, number, string | null, string, Uint8Array | null];

const PACKET_CODEC = rowCodecOf('metadata-packet') as unknown as ObservationRowCodec;
/** Where each part of a PacketRow (after its seq and its fields) is in a metadata packet's row, its triplet last. */
const PACKET_COLUMNS = [...['offset', 'packetIndex', 't', 'pid', 'klvIndex', 'items', 'keyName'].map((property) => 1 + PACKET_CODEC.columns.findIndex((column) => column.property === property)), PACKET_CODEC.tripletColumn];
/** What is read of a metadata packet block: the seq and those columns (the triplet comes from the KLV packet block). */
const PACKET_BLOCK_COLUMNS = [0, ...PACKET_COLUMNS.slice(0, -1)];

/**
 * The packets of a database whose fields are kept as items and come after `after`, in seq order, as PacketRows:
 * the fields counts (`metadata_fields`) merged with the packets' rows (table rows or blocks, with their triplets).
 */
class PacketsWithFields {
  readonly #counts: DerivedFieldCounts;
  readonly #packets: Generator<SqlValue[], void, undefined>;

  constructor(db: Database, after: number) {
    // The one packet before `after` whose fields may reach past it: the last at or before it.
    const [before] = db.exec(`SELECT seq, fields FROM ${METADATA_FIELDS_TABLE} WHERE seq <= ? ORDER BY seq DESC LIMIT 1`, [after]);
    const [seq, fields] = (before?.values[0] ?? [0, 0]) as [number, number];
    const from = seq + fields > after ? seq - 1 : after;
    this.#counts = new DerivedFieldCounts(db, from);
    this.#packets = packedRows(db, PACKET_CODEC, from, 0, true, { columns: PACKET_BLOCK_COLUMNS, tripletViews: true });
  }

  /** The next packet that keeps fields as items, with their count, or null after the last. */
  next(): PacketRow | null {
    for (let step = this.#packets.next(); step.done !== true; step = this.#packets.next()) {
      const row = step.value;
      const fields = this.#counts.at(row[0] as number);
      if (fields === 0) continue;
      // Written out: a spread of a map per packet cost a fifth of what reading the packets took.
      const [offset, packetIndex, t, pid, klvIndex, items, keyName, triplet] = PACKET_COLUMNS;
      return [row[0], fields, row[offset], row[packetIndex], row[t], row[pid], row[klvIndex], row[items], row[keyName], row[triplet]] as PacketRow;
    }
    return null;
  }

  free(): void {
    this.#counts.free();
    this.#packets.return();
  }
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

class KlvFieldRows implements IterableIterator<SqlValue[] | ItemField> {
  #statements: { stored: Statement; packets: PacketsWithFields } | null = null;
  #closed = false;
  /** The next stored field row, or null after the last. */
  #storedRow: SqlValue[] | null = null;
  /** A packet read whose fields are still to come (after any stored row before it). */
  #packet: PacketRow | null = null;
  #packetsDone = false;
  /** The packet's items, decoded; or, of a packet kept as its ST 0601 triplet, framed one at a time into `#frames` (`#framed`). */
  #items: readonly KlvItem[] = [];
  #framed = false;
  readonly #frames = new St0601ItemFrames();
  #next = 0;
  #end = 0;
  #field: PacketField | null = null;
  /** One result for every step: for-of reads it before it asks for the next. */
  readonly #result: IteratorYieldResult<SqlValue[] | ItemField> = { done: false, value: [] };

  constructor(
    private readonly db: Database,
    private readonly after: number,
  ) {}

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<SqlValue[] | ItemField> {
    try {
      return this.step();
    } catch (error) {
      this.close();
      throw error;
    }
  }

  return(): IteratorResult<SqlValue[] | ItemField> {
    this.close();
    return DONE;
  }

  private step(): IteratorResult<SqlValue[] | ItemField> {
    if (this.#closed) return DONE;
    const { stored, packets } = this.#statements ?? this.open();
    for (;;) {
      const field = this.#field;
      if (field !== null && this.#next < this.#end) {
        field.seq = (this.#packet as PacketRow)[0] + 1 + this.#next;
        if (!this.#framed) field.decoded(this.#items[this.#next]);
        else field.framed(this.#nextFrame(this.#packet as PacketRow));
        this.#next++;
        return this.yielding(field);
      }
      if (this.#packet === null || this.#field !== null) {
        // The packet's fields are all given (or none was read): the next packet, or the rows after the last one.
        this.#field = null;
        // (A statement stepped again after its last row would start over.)
        this.#packet = this.#packetsDone ? null : packets.next();
        this.#packetsDone = this.#packet === null;
        if (this.#packetsDone) break;
      }
      const packet = this.#packet as PacketRow;
      const [seq, fields, offset, packetIndex, t, pid, klvIndex, itemsText, keyName, triplet] = packet;
      // Stored rows before this packet's fields come first.
      const row = this.#storedRow;
      if (row !== null && (row[0] as number) < seq) {
        this.#storedRow = stored.step() ? stored.get() : null;
        return this.yielding(row);
      }
      const framed = itemsText === null && triplet !== null && keyName === ST0601_KEY_NAME;
      this.#framed = framed;
      this.#items = framed ? [] : itemsText === null ? itemsFromTriplet(triplet, keyName, seq) : (decodeJsonValue(itemsText) as KlvItem[]);
      this.#next = Math.max(0, this.after - seq);
      if (framed) {
        // The items before `after` framed and passed over.
        this.#frames.reset(triplet, 0, triplet.length);
        for (let skipped = 0; skipped < this.#next; skipped++) this.#nextFrame(packet);
      }
      this.#end = fields;
      this.#field = new PacketField({ offset, packetIndex, t, pid, klvIndex }, framed ? triplet : null);
    }
    const row = this.#storedRow;
    if (row === null) {
      this.close();
      return DONE;
    }
    this.#storedRow = stored.step() ? stored.get() : null;
    return this.yielding(row);
  }

  /** The packet's next item framed (the cursor, changed at the next step). */
  #nextFrame(packet: PacketRow): LocalSetItem {
    if (!this.#frames.next()) throw new Error(`metadata packet ${packet[0]} keeps ${packet[1]} fields as items but frames fewer items`);
    return this.#frames;
  }

  private yielding(value: SqlValue[] | ItemField): IteratorResult<SqlValue[] | ItemField> {
    this.#result.value = value;
    return this.#result;
  }

  private open(): { stored: Statement; packets: PacketsWithFields } {
    const stored = this.db.prepare(`${FIELD_CODEC.selectSql} WHERE seq > ? ORDER BY seq`, [this.after]);
    this.#statements = { stored, packets: new PacketsWithFields(this.db, this.after) };
    this.#storedRow = stored.step() ? stored.get() : null;
    return this.#statements;
  }

  private close(): void {
    this.#closed = true;
    if (this.#statements === null) return;
    this.#statements.stored.free();
    this.#statements.packets.free();
    this.#statements = null;
  }
}
