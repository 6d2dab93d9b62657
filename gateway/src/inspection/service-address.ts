/**
 * Where the inspection service is reached: what its clients (`klvscope
 * watch`) need without loading the server. No imports, so a client pays
 * nothing for them.
 */
export const DEFAULT_PORT = 38180;
/** The environment variable that sets the port (serve) and names it (watch). */
export const PORT_ENV = 'KLVSCOPE_PORT';
export const API_PREFIX = '/api/v1';
/** The live-findings channel: tRPC over WebSocket on the service's own port. */
export const LIVE_CHANNEL_PATH = `${API_PREFIX}/live`;
