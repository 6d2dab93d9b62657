export * from './inspection/index.js';
export type { LiveRouter } from './live/live-router.js';
export { LIVE_SOURCE_CHECK_ID, type LiveFinding, type LiveMetadataPacket, type LiveSessionState, type LiveSessionStatus, type LiveStatistics } from './live/live-records.js';
export { startStreamingServer, type RunningStreamingServer, type StartStreamingOptions } from './streaming/start-streaming-server.js';
export { startRelayServer, type RunningRelayServer, type StartRelayOptions } from './relay/start-relay-server.js';
export { FleetWorker, type FleetWorkerOptions } from './fleet/fleet-worker.js';
