/**
 * Writes metadata Access Unit cells for synchronous KLV carriage (ISO
 * 13818-1 2.12.4, Table 2-97; MISB ST 1402): a 5-byte header, then the
 * cell's data. The generator puts one whole ST 0601 packet in one cell and
 * one cell in one PES, so every cell is a complete access unit.
 */

export const AU_CELL_HEADER_SIZE = 5;

/** cell_fragment_indication '11' (ISO 13818-1 Table 2-98): the cell holds a complete access unit. */
const COMPLETE_ACCESS_UNIT = 0b11;

export interface AuCellFields {
  /** metadata_service_id: the service the metadata descriptor names (0 for the generator). */
  serviceId: number;
  /** sequence_number, incremented by one per cell of the service, modulo 256. */
  sequenceNumber: number;
  /** random_access_indicator: the AU can be decoded on its own (true for every ST 0601 packet). */
  randomAccess: boolean;
}

/** A cell holding `data`: header (service id, sequence number, flags, AU_cell_data_length) then the data. */
export function writeAuCell(fields: AuCellFields, data: Uint8Array): Uint8Array {
  if (data.length > 0xffff) throw new RangeError(`metadata AU cell data of ${data.length} bytes exceeds AU_cell_data_length (16 bits)`);
  const cell = new Uint8Array(AU_CELL_HEADER_SIZE + data.length);
  cell[0] = fields.serviceId & 0xff;
  cell[1] = fields.sequenceNumber & 0xff;
  // cell_fragment_indication (2), decoder_config_flag 0 (metadata descriptor says '000'), random_access_indicator, 4 reserved bits '1111'.
  cell[2] = (COMPLETE_ACCESS_UNIT << 6) | (fields.randomAccess ? 0x10 : 0) | 0x0f;
  cell[3] = data.length >>> 8;
  cell[4] = data.length & 0xff;
  cell.set(data, AU_CELL_HEADER_SIZE);
  return cell;
}
