/**
 * The states the relay keeps (the spec leaves them open; docs/relay.md
 * "States"). A channel: stopped, starting (opening its input), running
 * (data arrives), no-signal (its input silent longer than the limit),
 * error (its input cannot be opened or failed; retried while asked to run).
 * An output: idle (channel not running), sending, error (its last send was
 * refused, or it cannot be opened). The server: running, stopped, error.
 * Log message types: one per channel event (an alarm raised and cleared
 * among them, channel-alarms.ts), plus the server's own.
 */
export const CHANNEL_STATES = ['stopped', 'starting', 'running', 'no-signal', 'error'] as const;
export type ChannelState = (typeof CHANNEL_STATES)[number];

export const OUTPUT_STATES = ['idle', 'sending', 'error'] as const;
export type OutputState = (typeof OUTPUT_STATES)[number];

export const SERVER_STATES = ['running', 'stopped', 'error'] as const;
export type ServerState = (typeof SERVER_STATES)[number];

export const LOG_MESSAGE_TYPES = ['started', 'stopped', 'no-signal', 'signal-back', 'error', 'detection-done', 'alarm', 'alarm-cleared', 'server'] as const;
export type LogMessageType = (typeof LOG_MESSAGE_TYPES)[number];
