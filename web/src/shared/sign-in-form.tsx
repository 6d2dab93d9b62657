/**
 * The sign-in form of the dashboard and the relay console: a field for the
 * API key, checked by the page before anything is shown. The page gives the
 * heading and the sentence saying where the key is, and shows why the last
 * key was refused in its own way.
 */
import type { ComponentChildren } from 'preact';

export interface SignInFormProps {
  /** The heading and where the key is found. */
  children: ComponentChildren;
  /** The key field's name, which the page's tests fill in. */
  fieldName: string;
  /** A key is being checked: the form waits. */
  busy?: boolean;
  /** Why the form shows again: the last key's refusal. */
  problem?: ComponentChildren;
  onSubmit: (key: string) => void;
}

export function SignInForm({ children, fieldName, busy = false, problem, onSubmit }: SignInFormProps) {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const key = new FormData(event.currentTarget as HTMLFormElement).get(fieldName);
    if (typeof key === 'string' && key.trim() !== '') onSubmit(key.trim());
  };
  return (
    <form class="sign-in" onSubmit={submit}>
      {children}
      <label>
        API key <input name={fieldName} type="password" autocomplete="current-password" required disabled={busy} />
      </label>
      <button type="submit" disabled={busy}>
        {busy ? 'Checking…' : 'Sign in'}
      </button>
      {problem}
    </form>
  );
}
