/**
 * A check that threw. As in Rollup's PluginDriver, every call into a check is
 * wrapped so the error names the check and the hook; unlike Rollup, the run
 * goes on: the error becomes a result entry and the other checks finish.
 */
import { CoreError } from './core-error.js';
import type { ObservationKind } from './observations.js';

/** Where a check threw: `create`, `finish`, or the handler of an observation kind. */
export type CheckHook = 'create' | 'finish' | ObservationKind;

/** Position of the observation being handled when the check threw. */
export interface PluginErrorPosition {
  offset: number;
  packetIndex: number;
}

export class PluginError extends CoreError {
  override readonly name = 'PluginError';

  constructor(
    readonly checkId: string,
    readonly hook: CheckHook,
    override readonly cause: unknown,
    /** Null for `create` and `finish`. */
    readonly position: PluginErrorPosition | null = null,
  ) {
    const where = hook === 'create' || hook === 'finish' ? hook : `its '${hook}' handler`;
    const at = position ? ` at offset ${position.offset}` : '';
    super('ERR_CHECK_FAILED', `check '${checkId}' threw in ${where}${at}: ${causeMessage(cause)}`, { checkId, hook, position }, { cause });
  }
}

function causeMessage(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  try {
    return String(cause);
  } catch {
    return 'a value that cannot be shown';
  }
}
