/** The rules package's error class: a stable `code` and, for invalid rule sets, every problem with its path. */
export type RulesErrorCode = 'ERR_RULES_INVALID' | 'ERR_PROFILE_UNKNOWN' | 'ERR_TEMPLATE_NAME' | 'ERR_TEMPLATE_NOT_FOUND';

export class RulesError extends Error {
  constructor(
    readonly code: RulesErrorCode,
    message: string,
    readonly problems: readonly string[] = [],
  ) {
    super(message);
    this.name = 'RulesError';
  }
}
