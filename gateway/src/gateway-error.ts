/** The gateway's error class: a stable `code`; the CLI and (later) the HTTP surfaces map codes to exit codes and statuses. */
export type GatewayErrorCode = 'ERR_PLUGIN_LOAD' | 'ERR_PLUGIN_INVALID' | 'ERR_PLUGIN_DUPLICATE' | 'ERR_CONFIG_INVALID' | 'ERR_CONFIG_UNREADABLE';

export class GatewayError extends Error {
  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}
