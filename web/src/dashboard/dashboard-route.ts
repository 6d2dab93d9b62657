/**
 * The dashboard's pages, addressed by the URL fragment
 * (`#/report?file=%2Fdata%2Ffile.ts`), so that every view has an address to
 * bookmark and the service serves one page. Reports and checks name the
 * recorded file by its path, as the REST detail endpoints do (`filePath`).
 * A fragment the dashboard does not know shows the files page.
 */

export type DashboardRoute =
  | { page: 'files' }
  | { page: 'report'; filePath: string }
  /** `atS`: a stream time whose nearest violation the page selects on opening (`&at=3.228`: the report's jump to the worst). */
  | { page: 'check'; filePath: string; checkId: string; atS?: number }
  | { page: 'klv'; filePath: string }
  | { page: 'compare'; a: string; b: string }
  | { page: 'live' }
  /** A hub's probe session in the live view (`#/live/probe/<sessionId>`). */
  | { page: 'probe-session'; sessionId: string }
  | { page: 'rules' }
  | { page: 'fleet' };

export function parseRoute(hash: string): DashboardRoute {
  const [path, search = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const params = new URLSearchParams(search);
  const filePath = params.get('file');
  const checkId = params.get('check');
  if (path === 'report' && filePath !== null) return { page: 'report', filePath };
  if (path === 'check' && filePath !== null && checkId !== null) {
    const atS = Number(params.get('at') ?? NaN);
    return Number.isFinite(atS) ? { page: 'check', filePath, checkId, atS } : { page: 'check', filePath, checkId };
  }
  if (path === 'klv' && filePath !== null) return { page: 'klv', filePath };
  if (path === 'compare') return { page: 'compare', a: params.get('a') ?? '', b: params.get('b') ?? '' };
  if (path === 'live') return { page: 'live' };
  const probeSession = /^live\/probe\/([^/]+)$/.exec(path);
  const sessionId = probeSession === null ? null : decodedOrNull(probeSession[1]);
  if (sessionId !== null) return { page: 'probe-session', sessionId };
  if (path === 'rules') return { page: 'rules' };
  if (path === 'fleet') return { page: 'fleet' };
  return { page: 'files' };
}

/** A fragment's part as the user meant it, or null when it is no valid percent-encoding. */
function decodedOrNull(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

export function routeHash(route: DashboardRoute): string {
  switch (route.page) {
    case 'files':
      return '#/files';
    case 'report':
      return `#/report?${new URLSearchParams({ file: route.filePath }).toString()}`;
    case 'check':
      return `#/check?${new URLSearchParams({ file: route.filePath, check: route.checkId, ...(route.atS === undefined ? {} : { at: String(route.atS) }) }).toString()}`;
    case 'klv':
      return `#/klv?${new URLSearchParams({ file: route.filePath }).toString()}`;
    case 'compare':
      return `#/compare?${new URLSearchParams({ a: route.a, b: route.b }).toString()}`;
    case 'live':
      return '#/live';
    case 'probe-session':
      return `#/live/probe/${encodeURIComponent(route.sessionId)}`;
    case 'rules':
      return '#/rules';
    case 'fleet':
      return '#/fleet';
  }
}
