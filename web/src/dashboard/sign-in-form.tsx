/** The sign-in form: the API key pasted (from the key file `klvscope serve` names), checked against the service before anything is shown. */
import { useState } from 'preact/hooks';

export interface SignInFormProps {
  /** Why the form shows: no key yet, or the last one was refused. */
  problem: string | null;
  onSubmit: (key: string) => void;
}

export function SignInForm({ problem, onSubmit }: SignInFormProps) {
  const [key, setKey] = useState('');
  return (
    <form
      class="sign-in"
      onSubmit={(event) => {
        event.preventDefault();
        if (key.trim() !== '') onSubmit(key.trim());
      }}
    >
      <h1>klvscope</h1>
      <p>Sign in with the inspection service's API key: open the address <code>klvscope serve</code> printed, or paste the key from its key file.</p>
      <label>
        API key
        <input type="password" name="apiKey" autocomplete="off" value={key} onInput={(event) => setKey((event.target as HTMLInputElement).value)} />
      </label>
      <button type="submit">Sign in</button>
      {problem !== null && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
