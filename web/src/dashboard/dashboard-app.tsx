/**
 * The dashboard: a sign-in gate, then the navigation and the page the URL
 * fragment names. No data is asked for before the service has accepted the
 * key (GET /auth/status answers 200), and a refusal later (the key rotated)
 * brings the sign-in form back.
 */
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, createApiClient, isAuthError, type ApiClient } from './api-client.js';
import { storedKey, storeKey, takeKeyFromFragment } from '../shared/api-key-session.js';
import { SignInForm } from '../shared/sign-in-form.js';
import { parseRoute, routeHash, type DashboardRoute } from './dashboard-route.js';
import type { PageProps } from './page-props.js';
import { CheckPage } from './pages/check-page.js';
import { ComparePage } from './pages/compare-page.js';
import { FilesPage } from './pages/files-page.js';
import { KlvPacketsPage } from './pages/klv-packets-page.js';
import { LivePage } from './pages/live-page.js';
import { ProbeSessionPage } from './pages/probe-session-page.js';
import { ReportPage } from './pages/report-page.js';
import { RulesPage } from './pages/rules-page.js';
import { FleetPage } from './pages/fleet-page.js';

type Gate = { state: 'checking' } | { state: 'signed-out'; problem: string | null } | { state: 'signed-in'; api: ApiClient };

/** The key from the sign-in URL's fragment, else the one this tab kept; read once, before the first render. */
const initialKey = takeKeyFromFragment(window.location, window.history) ?? storedKey();

export function DashboardApp() {
  const [gate, setGate] = useState<Gate>(initialKey === null ? { state: 'signed-out', problem: null } : { state: 'checking' });
  const [route, setRoute] = useState<DashboardRoute>(() => parseRoute(window.location.hash));

  const signIn = useCallback(async (key: string) => {
    setGate({ state: 'checking' });
    const api = createApiClient(key);
    try {
      await api.get('/auth/status');
      storeKey(key);
      setGate({ state: 'signed-in', api });
    } catch (error) {
      storeKey(null);
      setGate({ state: 'signed-out', problem: isAuthError(error) ? 'The service refused this key: check it against the key file and try again.' : (error as Error).message });
    }
  }, []);

  useEffect(() => {
    if (initialKey !== null) void signIn(initialKey);
  }, [signIn]);

  useEffect(() => {
    const onHashChange = () => {
      // A sign-in URL opened in a tab that already shows the dashboard.
      const key = takeKeyFromFragment(window.location, window.history);
      if (key !== null) void signIn(key);
      setRoute(parseRoute(window.location.hash));
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, [signIn]);

  const signOut = useCallback((problem: string | null) => {
    storeKey(null);
    setGate({ state: 'signed-out', problem });
  }, []);

  // A page whose request is refused for the key: back to the sign-in form.
  useEffect(() => {
    const onRejection = (event: PromiseRejectionEvent) => {
      if (isAuthError(event.reason)) signOut((event.reason as ApiError).message);
    };
    window.addEventListener('unhandledrejection', onRejection);
    return () => window.removeEventListener('unhandledrejection', onRejection);
  }, [signOut]);

  const navigate = useMemo(() => (next: DashboardRoute) => {
    window.location.hash = routeHash(next);
  }, []);

  if (gate.state === 'checking') return <p class="checking">Checking the key…</p>;
  if (gate.state === 'signed-out') {
    return (
      <SignInForm
        fieldName="apiKey"
        onSubmit={(key) => void signIn(key)}
        problem={
          gate.problem !== null && (
            <p class="error" role="alert">
              {gate.problem}
            </p>
          )
        }
      >
        <h1>klvscope</h1>
        <p>
          Sign in with the inspection service's API key: open the address <code>klvscope serve</code> or <code>klvscope start</code> printed, or paste the key from its key file.
        </p>
      </SignInForm>
    );
  }
  return (
    <div class="dashboard">
      <nav class="top-nav">
        <span class="brand">klvscope</span>
        <a href="#/files" class={route.page === 'files' || route.page === 'report' || route.page === 'check' || route.page === 'klv' ? 'active' : ''}>Files</a>
        <a href="#/compare" class={route.page === 'compare' ? 'active' : ''}>Compare</a>
        <a href="#/live" class={route.page === 'live' || route.page === 'probe-session' ? 'active' : ''}>Live</a>
        <a href="#/rules" class={route.page === 'rules' ? 'active' : ''}>Rules</a>
        <a href="#/fleet" class={route.page === 'fleet' ? 'active' : ''}>Fleet</a>
        <a href="/api/v1/openapi.json" target="_blank" rel="noreferrer">API</a>
        <button type="button" class="sign-out" onClick={() => signOut(null)}>
          Sign out
        </button>
      </nav>
      <main>
        <CurrentPage api={gate.api} route={route} navigate={navigate} />
      </main>
    </div>
  );
}

function CurrentPage({ api, route, navigate }: PageProps) {
  switch (route.page) {
    case 'files':
      return <FilesPage api={api} route={route} navigate={navigate} />;
    case 'report':
      return <ReportPage api={api} route={route} navigate={navigate} />;
    case 'check':
      return <CheckPage api={api} route={route} navigate={navigate} />;
    case 'klv':
      return <KlvPacketsPage api={api} route={route} navigate={navigate} />;
    case 'compare':
      return <ComparePage api={api} route={route} navigate={navigate} />;
    case 'live':
      return <LivePage api={api} route={route} navigate={navigate} />;
    case 'probe-session':
      return <ProbeSessionPage api={api} route={route} navigate={navigate} />;
    case 'rules':
      return <RulesPage api={api} route={route} navigate={navigate} />;
    case 'fleet':
      return <FleetPage api={api} route={route} navigate={navigate} />;
  }
}
