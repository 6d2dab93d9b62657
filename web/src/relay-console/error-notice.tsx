/**
 * What the relay refused, as its error body says it: the code, the message,
 * and the details (for an invalid request, each offending field).
 */
import { RelayApiError } from './relay-api.js';

export interface ConsoleError {
  /** What the console was doing: `start eo-1`, `sign in`. */
  action: string;
  error: RelayApiError;
}

export interface ErrorNoticeProps {
  notice: ConsoleError;
  onDismiss?: () => void;
}

export function ErrorNotice({ notice, onDismiss }: ErrorNoticeProps) {
  const { action, error } = notice;
  return (
    <div class="error-notice" role="alert">
      <p>
        <strong>{action}</strong> failed{error.status > 0 ? ` (HTTP ${error.status})` : ''}: <code data-field="error-code">{error.code}</code> <span data-field="error-message">{error.message}</span>
      </p>
      {error.details !== undefined && <pre data-field="error-details">{JSON.stringify(error.details, null, 1)}</pre>}
      {onDismiss && (
        <button type="button" class="dismiss" onClick={onDismiss}>
          Dismiss
        </button>
      )}
    </div>
  );
}

/** Any failure as the relay's error, so one notice shows them all. */
export function asRelayError(error: unknown): RelayApiError {
  return error instanceof RelayApiError ? error : new RelayApiError(0, 'CONSOLE', error instanceof Error ? error.message : String(error));
}
