/**
 * The synthetic MPEG-TS generator with fault injection (DESIGN.md "gen/").
 */
export { createGenerator, generateTransportStream, type GeneratedStream } from './generator.js';
export { DEFAULT_INITIAL_PCR_27MHZ, type GeneratorOptions } from './generator-options.js';
export { GeneratorError, type GeneratorErrorCode } from './generator-error.js';
export { parseFaultSpec, formatFaultSpec, type FaultSpec } from './fault-spec.js';
export type { FaultExpectation, InjectedFault } from './injected-fault.js';
export type { FaultInjector, FaultKind, PacketFate, StreamLayout } from './fault-injector.js';
export { BUILT_IN_FAULT_KINDS, BUILT_IN_FAULT_KIND_NAMES } from './built-in-fault-kinds.js';
export { KlvSource, type KlvSourceEnvironment } from './klv-source.js';
export { H264ClipSource, splitH264AccessUnits, type H264AccessUnit, type H264ClipSourceOptions } from './h264-clip-source.js';
export { createDemoStream, DEMO_BITRATE, DEMO_CHUNK_PACKETS, DEMO_MISSION_ID, type DemoStream, type DemoStreamOptions } from './demo-stream.js';
export {
  DEFAULT_KLV_PID,
  DEFAULT_KLV_RATE_HZ,
  DEFAULT_KLV_START_TIME_MICROS,
  DEFAULT_ST0601_VERSION,
  type KlvCarriage,
  type KlvStreamOptions,
} from './klv-stream-options.js';
export { KLV_FAULT_KIND_NAMES, KLV_FAULT_SUMMARIES, type KlvFaultExpectation, type KlvFaultKind } from './klv-fault-kinds.js';
export { FlightPath, type FlightSample } from './klv-flight-path.js';
export { writeAuCell, type AuCellFields } from './st1402-au-cell-writer.js';
export { PacketInfo, type PacketContent, type SourceFaultMark } from './packet-info.js';
export type { AccessUnit, ElementaryStreamSource, SourceContext } from './elementary-stream-source.js';
export { SeededRandom } from './seeded-random.js';
export { CbrClock, PCR_BASE_LAST_BYTE, wrapPcr27MHz, wrapPts90kHz } from './cbr-clock.js';
export {
  descriptor,
  descriptorLoop,
  formatIdentifier,
  KLVA_FORMAT_IDENTIFIER,
  metadataDescriptor,
  metadataPointerDescriptor,
  metadataStdDescriptor,
  registrationDescriptor,
  type MetadataFormatFields,
  type MetadataPointerFields,
  type MetadataStdFields,
} from './descriptor-writer.js';
export {
  writePacketHeader,
  AFC_PAYLOAD_ONLY,
  AFC_ADAPTATION_ONLY,
  AFC_ADAPTATION_AND_PAYLOAD,
  type PacketHeaderExtras,
} from './packet-header-writer.js';
export { writeAdaptationField, writePcr, AF_DISCONTINUITY, AF_RANDOM_ACCESS, AF_ES_PRIORITY } from './adaptation-field-writer.js';
export { writePesHeader, writeTimestamp, pesHeaderLength, type PesHeaderFields } from './pes-header-writer.js';
export { PesPacketizer } from './pes-packetizer.js';
export { writeLongSection, type LongSectionFields } from './psi-section-writer.js';
export { writePatSection, type PatFields, type PatProgram } from './pat-section-writer.js';
export { writePmtSection, type PmtFields, type PmtStream } from './pmt-section-writer.js';
export { packetizeSection } from './psi-packetizer.js';
