/** Where the relay answers (spec channel-relay.md: port 5173, paths under /api, no version prefix). */
export const DEFAULT_RELAY_PORT = 5173;
export const RELAY_PORT_ENV = 'KLVSCOPE_RELAY_PORT';
export const RELAY_API_PREFIX = '/api';
