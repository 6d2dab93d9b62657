/**
 * The relay console's page: the sign-in gate, then the overview. The key
 * is checked with GET /api/auth/status, which needs it even on loopback
 * (where the relay's other reads are open): without a key the relay
 * accepts, the page shows the sign-in form and nothing the relay holds.
 */
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { storeKey, takeKeyFromFragment } from '../shared/api-key-session.js';
import { SignInForm } from '../shared/sign-in-form.js';
import { ErrorNotice, asRelayError, type ConsoleError } from './error-notice.js';
import { RelayApi } from './relay-api.js';
import { emptyProbe, type RelayConsoleProbe } from './relay-console-probe.js';
import { RelayOverview } from './relay-overview.js';

export interface RelayConsolePageProps {
  /** The key from the fragment or kept for this tab (web/src/shared/api-key-session.ts), still to be checked; null: none. */
  initialKey: string | null;
  probe: RelayConsoleProbe;
}

export function RelayConsolePage({ initialKey, probe }: RelayConsolePageProps) {
  const [key, setKey] = useState<string | null>(null);
  const [checking, setChecking] = useState(true);
  const [refusal, setRefusal] = useState<ConsoleError | null>(null);

  const signOut = useCallback((why: ConsoleError | null) => {
    storeKey(null);
    setKey(null);
    setRefusal(why);
    Object.assign(probe, emptyProbe(), { errorCode: why?.error.code ?? null });
  }, [probe]);

  const signIn = useCallback(
    async (candidate: string) => {
      setChecking(true);
      try {
        await new RelayApi(candidate).checkKey();
        storeKey(candidate);
        setRefusal(null);
        setKey(candidate);
      } catch (error) {
        signOut({ action: 'sign in', error: asRelayError(error) });
      } finally {
        setChecking(false);
      }
    },
    [signOut],
  );

  useEffect(() => {
    if (initialKey === null) setChecking(false);
    else void signIn(initialKey);
  }, [initialKey, signIn]);

  // A sign-in link opened in this tab changes only the fragment: no new page load.
  useEffect(() => {
    const onHashChange = () => {
      const key = takeKeyFromFragment(location, history);
      if (key !== null) void signIn(key);
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, [signIn]);

  const api = useMemo(() => (key === null ? null : new RelayApi(key)), [key]);
  return (
    <div class="relay-console">
      <header class="title">
        <h1>klvscope channel relay</h1>
      </header>
      {api === null ? (
        <SignInForm fieldName="key" busy={checking} problem={refusal !== null && <ErrorNotice notice={refusal} />} onSubmit={(candidate) => void signIn(candidate)}>
          <h2>Sign in</h2>
          <p>
            The console needs the relay's API key: the data folder's <code>api-key</code> file, or <code>KLVSCOPE_API_KEY</code>. <code>klvscope relay</code> prints a link that signs in
            directly.
          </p>
        </SignInForm>
      ) : (
        <RelayOverview api={api} probe={probe} onKeyRefused={signOut} onSignOut={() => signOut(null)} />
      )}
    </div>
  );
}
