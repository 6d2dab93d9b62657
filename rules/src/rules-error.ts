/**
 * The one error class of @klvscope/rules. `code` is stable (the gateway maps
 * it to an HTTP status and an exit code in one table); `message` is for
 * people and names every offending path; `problems` lists them one by one.
 */
import { CodedError, type ErrorBody } from '@klvscope/core';

export type RulesErrorCode =
  /** The rule set given does not fit the registered checks (unknown check, rule or setting; a value refused). HTTP 422. */
  | 'ERR_RULES_INVALID'
  /** A profile name that no profile has. HTTP 422 (400 when it comes from a query parameter). */
  | 'ERR_PROFILE_UNKNOWN'
  /** A profile names a rule that a registered check does not have, or gives it a value the check refuses: our data is wrong. HTTP 500. */
  | 'ERR_PROFILE_INVALID'
  /** A template name that breaks the naming rules (empty, over 100 characters, a path character). HTTP 400. */
  | 'ERR_TEMPLATE_NAME_INVALID'
  /** No template has that name. HTTP 404. */
  | 'ERR_TEMPLATE_NOT_FOUND'
  /** A template of that name exists and replacing it was not asked for. HTTP 409. */
  | 'ERR_TEMPLATE_EXISTS';

export class RulesError extends CodedError<RulesErrorCode> {
  override readonly name: string = 'RulesError';

  constructor(
    code: RulesErrorCode,
    message: string,
    /** One line per problem, each starting with the path it is about (`checks.<id>.<rule>: ...`). */
    readonly problems: readonly string[] = [],
    details?: Readonly<Record<string, unknown>>,
  ) {
    super(code, message, details);
  }

  /** The gateway's error body, with the problems in `details`. */
  override toJSON(): ErrorBody<RulesErrorCode> {
    const body = super.toJSON();
    return this.problems.length > 0 ? { ...body, details: { ...this.details, problems: this.problems } } : body;
  }
}
