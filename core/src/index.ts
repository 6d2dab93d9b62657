export * from './kernel/observations.js';
export { crc32Mpeg2 } from './ts/crc32.js';
export { isAudioStreamType, isVideoStreamType, streamTypeName } from './ts/stream-types.js';
export { TS_ERROR_TYPES } from './ts/ts-error-catalog.js';
export { TsDemuxer, type DemuxerOptions } from './ts/demuxer.js';
export { scanPacketRuns, type PacketRuns } from './ts/packet-runs.js';
export { videoCodecOf, videoResolutionOf, type VideoCodec, type VideoResolution } from './ts/video-resolution.js';
export { VideoResolutionProbe } from './ts/video-resolution-probe.js';
export { InventoryBuilder, type Inventory, type InventoryPid, type InventoryProgram } from './ts/inventory.js';
export { VideoDetailsBuilder, type VideoGopStructure, type VideoStreamDetails } from './ts/video-details.js';
export type { PesPayloadConsumer } from './ts/pes-payload-consumer.js';
export { detectPacketLayout, type PacketLayout, type PacketSize } from './ts/packet-layout.js';
export { PidBitrateCounter, type PidBitrate, type PidBitrateSeries } from './ts/pid-bitrate-series.js';
export { NULL_PID, PID_COUNT } from './ts/pid.js';
export { TS_PACKET_SIZE, TS_SYNC_BYTE } from './ts/ts-packet.js';
export { PCR_HZ, PTS_HZ, PCR_MODULUS, PTS_MODULUS, pcrDelta27MHz, ptsDelta90kHz, ptsMinusPcr90kHz, readPcr27MHz, readTimestamp90kHz } from './ts/clock.js';
export { CoreError, type CoreErrorCode } from './kernel/core-error.js';
export { OBSERVATION_KINDS, isObservationKind } from './kernel/observation-kinds.js';
export {
  defineCheck,
  assertCheckDefinition,
  type AnyCheck,
  type CheckContext,
  type CheckDefinition,
  type CheckHandlers,
  type CheckSpec,
  type NoRules,
  type RulesSchema,
} from './kernel/define-check.js';
export { parseCheckRules, describeRulesIssues } from './kernel/check-rules.js';
export { ensureEnglishZodMessages } from './kernel/zod-messages.js';
export type { Point, PointFinding, PointPosition, PointSeries } from './kernel/check-point.js';
export type { CheckSummary, ValueStatistics, Verdict } from './kernel/check-summary.js';
export type { CheckResult, CheckStatus, PointSink } from './kernel/check-run.js';
export { PluginError, type CheckHook, type PluginErrorPosition } from './kernel/plugin-error.js';
export { CheckRegistry } from './kernel/check-registry.js';
export { CheckSession, DEFAULT_MAX_POINTS_PER_CHECK, type CheckSessionOptions, type SessionResult } from './kernel/check-session.js';
export {
  runPipeline,
  runObservations,
  OBSERVATION_BATCH,
  type ByteSource,
  type ObservationRunOptions,
  type PipelineOptions,
  type PipelineResult,
  type RunOptions,
  type SourceChunk,
} from './kernel/pipeline.js';
export { createTsDemuxer, type Demuxer, type DemuxerFactory, type DemuxerFactoryOptions } from './kernel/demuxer-factory.js';
export { createConsoleLogger, silentLogger, type LogFields, type LogLevel, type Logger } from './kernel/logger.js';
export { systemClock, type WallClock } from './kernel/wall-clock.js';
export { importModule } from './kernel/import-module.js';
export { DEFAULT_KERNEL_CONFIG, type KernelConfig } from './kernel/kernel-config.js';
export { CHECK_REGISTRY, DEMUXER_FACTORY, KERNEL_CONFIG, LOGGER, WALL_CLOCK, serviceToken, type ServiceToken } from './kernel/tokens.js';
export { createContainer, provideService, resolveService, type DependencyContainer, type ServiceProvider } from './kernel/container.js';
export * from './klv/index.js';
export {
  createGenerator,
  generateTransportStream,
  parseFaultSpec,
  formatFaultSpec,
  BUILT_IN_FAULT_KIND_NAMES,
  GeneratorError,
  type GeneratedStream,
  type GeneratorOptions,
  type FaultSpec,
  type InjectedFault,
  type ElementaryStreamSource,
  type AccessUnit,
  type KlvStreamOptions,
  KLV_FAULT_KIND_NAMES,
  writePcr,
  writeTimestamp,
  createDemoStream,
  H264ClipSource,
  splitH264AccessUnits,
  type DemoStream,
  type DemoStreamOptions,
  type H264AccessUnit,
  type H264ClipSourceOptions,
} from './gen/index.js';
export { CodedError, type ErrorBody } from './kernel/coded-error.js';
// The streaming module's message types, and what else browser code may take from core.
export * from './browser.js';
