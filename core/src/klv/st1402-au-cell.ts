/**
 * The metadata Access Unit cell header of synchronous metadata carriage
 * (ISO 13818-1 2.12.4, Table 2-97; MISB ST 1402): 5 bytes before each cell
 * of metadata in a PES of stream_type 0x15.
 */

export const AU_CELL_HEADER_BYTES = 5;

/** cell_fragment_indication (ISO 13818-1 Table 2-98). */
export const CellFragment = { Middle: 0, Last: 1, First: 2, Complete: 3 } as const;

export interface AuCellHeader {
  metadataServiceId: number;
  sequenceNumber: number;
  /** 3: a complete AU; 2: first fragment; 0: middle fragment; 1: last fragment. */
  cellFragmentIndication: number;
  decoderConfigFlag: boolean;
  randomAccessIndicator: boolean;
  auCellDataLength: number;
}

/** Reads the header at `offset`; the caller has checked that 5 bytes are there. */
export function readAuCellHeader(bytes: Uint8Array, offset: number): AuCellHeader {
  const flags = bytes[offset + 2];
  return {
    metadataServiceId: bytes[offset],
    sequenceNumber: bytes[offset + 1],
    cellFragmentIndication: flags >>> 6,
    decoderConfigFlag: (flags & 0x20) !== 0,
    randomAccessIndicator: (flags & 0x10) !== 0,
    auCellDataLength: (bytes[offset + 3] << 8) | bytes[offset + 4],
  };
}
