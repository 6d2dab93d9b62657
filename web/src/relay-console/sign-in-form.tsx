/**
 * The one thing the console shows without a key the relay accepts: a field
 * for the key (the data folder's `api-key` file, or KLVSCOPE_API_KEY), and
 * why the last one was refused.
 */
import { ErrorNotice, type ConsoleError } from './error-notice.js';

export interface SignInFormProps {
  busy: boolean;
  refusal: ConsoleError | null;
  onSubmit: (key: string) => void;
}

export function SignInForm({ busy, refusal, onSubmit }: SignInFormProps) {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const key = new FormData(event.currentTarget as HTMLFormElement).get('key');
    if (typeof key === 'string' && key.trim() !== '') onSubmit(key.trim());
  };
  return (
    <form class="sign-in" onSubmit={submit}>
      <h2>Sign in</h2>
      <p>
        The console needs the relay's API key: the data folder's <code>api-key</code> file, or <code>KLVSCOPE_API_KEY</code>. <code>klvscope relay</code> prints a link that signs in
        directly.
      </p>
      <label>
        API key <input name="key" type="password" autocomplete="current-password" required disabled={busy} />
      </label>
      <button type="submit" disabled={busy}>
        {busy ? 'Checking…' : 'Sign in'}
      </button>
      {refusal !== null && <ErrorNotice notice={refusal} />}
    </form>
  );
}
