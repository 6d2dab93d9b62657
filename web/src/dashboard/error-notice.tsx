/** An error as the page shows it: the service's message and, where there is one, its code. */
import { ApiError } from './api-client.js';

export function ErrorNotice({ error, what }: { error: Error; what: string }) {
  return (
    <p class="error" role="alert">
      Could not {what}: {error.message}
      {error instanceof ApiError && error.code !== '' && <code class="error-code"> ({error.code})</code>}
    </p>
  );
}
