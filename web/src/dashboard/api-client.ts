/**
 * The inspection service's REST interface as the dashboard calls it: the
 * same /api/v1 endpoints as any script, with the X-API-Key header. Paths are
 * relative to the page's origin, where the service serves the dashboard.
 */

export const API_PREFIX = '/api/v1';

/** An error the service answered with (`{"error":{"code","message","details"}}`), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiClient {
  readonly apiKey: string;
  /** `path` is below /api/v1 (`/health`); a query object is added as search parameters. */
  request<T>(method: HttpMethod, path: string, options?: { body?: unknown; query?: Record<string, string | number | undefined> }): Promise<T>;
  get<T>(path: string, query?: Record<string, string | number | undefined>): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
}

export function apiUrl(path: string, query?: Record<string, string | number | undefined>): string {
  const url = new URL(`${API_PREFIX}${path}`, window.location.origin);
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
  return url.href;
}

export function createApiClient(apiKey: string): ApiClient {
  const request = async <T,>(method: HttpMethod, path: string, options: { body?: unknown; query?: Record<string, string | number | undefined> } = {}): Promise<T> => {
    const headers: Record<string, string> = { 'X-API-Key': apiKey };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(apiUrl(path, options.query), { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    } catch (error) {
      throw new ApiError(0, 'ERR_NETWORK', `the inspection service cannot be reached (${(error as Error).message})`);
    }
    const text = await response.text();
    const body = text === '' ? undefined : parseJson(text);
    if (!response.ok) {
      const error = (body as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
      throw new ApiError(response.status, error?.code ?? `HTTP_${response.status}`, error?.message ?? `${method} ${path} answered ${response.status}`, error?.details);
    }
    return body as T;
  };
  return {
    apiKey,
    request,
    get: (path, query) => request('GET', path, { query }),
    post: (path, body) => request('POST', path, { body: body ?? {} }),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Whether an error means the key is missing or wrong: the page then asks for it again. */
export function isAuthError(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'ERR_API_KEY_MISSING' || error.code === 'ERR_API_KEY_WRONG');
}
