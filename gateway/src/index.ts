export * from './inspection/index.js';
export { LIVE_CHANNEL_PATH } from './live/live-channel.js';
export type { LiveRouter } from './live/live-router.js';
export { LIVE_SOURCE_CHECK_ID, type LiveFinding, type LiveMetadataPacket, type LiveSessionState, type LiveSessionStatus, type LiveStatistics } from './live/live-records.js';
