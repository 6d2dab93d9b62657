/**
 * The relay console (web/src/relay-console, built into
 * web/dist/relay-console) at the relay's `/`. Its files are answered
 * without the key everywhere: they hold no data, and the page must load to
 * ask for the key (every request it makes carries it).
 */
import type { FastifyInstance } from 'fastify';
import type { StaticFiles } from '../http/static-files.js';
import { installWebAppPages } from '../http/web-app-files.js';
import { DOCS_PATH } from './docs-page.js';
import { RelayError } from './relay-error.js';

export function installConsolePage(app: FastifyInstance, files: StaticFiles | null): void {
  installWebAppPages(
    app,
    files,
    () => new RelayError('ERR_ROUTE_NOT_FOUND', `the relay console is not built: run 'npm run build' (it makes web/dist/relay-console); the API's docs page is at ${DOCS_PATH}/`),
  );
}
