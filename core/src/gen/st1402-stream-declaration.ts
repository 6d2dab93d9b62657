/**
 * How a KLV elementary stream is declared in the PMT and framed in PES, by
 * MISB ST 1402 carriage:
 *
 * - synchronous (ISO 13818-1 2.12.4, metadata in PES): stream_type 0x15,
 *   stream_id 0xFC, ES descriptors registration 'KLVA' + metadata_descriptor
 *   (application format 0x0100 general, format 0xFF, identifier 'KLVA',
 *   service 0) + metadata_STD_descriptor, and a metadata_pointer_descriptor
 *   in the program_info loop (ISO 13818-1 2.12.3);
 * - asynchronous (SMPTE RP 217): stream_type 0x06 (PES private data),
 *   stream_id 0xBD or 0xFC, ES descriptor registration 'KLVA'.
 */
import type { KlvCarriage } from './klv-stream-options.js';
import {
  descriptorLoop,
  KLVA_FORMAT_IDENTIFIER,
  metadataDescriptor,
  metadataPointerDescriptor,
  metadataStdDescriptor,
  registrationDescriptor,
} from './descriptor-writer.js';

/** ISO 13818-1 Table 2-34: metadata carried in PES packets; PES packets with private data. */
export const METADATA_IN_PES_STREAM_TYPE = 0x15;
export const PES_PRIVATE_DATA_STREAM_TYPE = 0x06;

/** metadata_service_id of the generator's one metadata service. */
export const KLV_SERVICE_ID = 0;

export interface KlvStreamDeclaration {
  streamType: number;
  descriptors: Uint8Array;
  programDescriptors: Uint8Array;
}

/** metadata_STD leak rates are in units of 400 bit/s (ISO 13818-1 2.6.62). */
const LEAK_RATE_UNIT_BPS = 400;

/**
 * The PMT entries of a KLV stream of `nominalBitrate` bits/s in program
 * `programNumber`. The metadata decoder buffer (1 KiB, metadata_buffer_size
 * in KiB) holds a few ST 0601 packets; it fills and drains at four times the
 * stream's rate, so a burst of packets never overflows it.
 */
export function klvStreamDeclaration(carriage: KlvCarriage, programNumber: number, nominalBitrate: number): KlvStreamDeclaration {
  const registration = registrationDescriptor(KLVA_FORMAT_IDENTIFIER);
  if (carriage === 'async') {
    return { streamType: PES_PRIVATE_DATA_STREAM_TYPE, descriptors: registration, programDescriptors: new Uint8Array(0) };
  }
  const leakRate = Math.min(0x3fffff, Math.ceil((4 * nominalBitrate) / LEAK_RATE_UNIT_BPS));
  return {
    streamType: METADATA_IN_PES_STREAM_TYPE,
    descriptors: descriptorLoop(
      registration,
      metadataDescriptor({ serviceId: KLV_SERVICE_ID }),
      metadataStdDescriptor({ inputLeakRate: leakRate, bufferSize: 1, outputLeakRate: leakRate }),
    ),
    programDescriptors: metadataPointerDescriptor({ programNumber, serviceId: KLV_SERVICE_ID }),
  };
}
