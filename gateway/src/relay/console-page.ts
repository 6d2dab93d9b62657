/**
 * The relay console (web/src/relay-console, built into
 * web/dist/relay-console) at the relay's `/`. Its files are answered
 * without the key everywhere: they hold no data, and the page must load to
 * ask for the key (every request it makes carries it).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorBody } from '../http/error-response.js';
import type { StaticFiles } from '../http/static-files.js';
import { sendWebAppFile } from '../http/web-app-files.js';
import { DOCS_PATH } from './docs-page.js';

export function installConsolePage(app: FastifyInstance, files: StaticFiles | null): void {
  const serve = (path: string, reply: FastifyReply): FastifyReply =>
    files === null
      ? reply.code(404).send(errorBody('ERR_ROUTE_NOT_FOUND', `the relay console is not built: run 'npm run build' (it makes web/dist/relay-console); the API's docs page is at ${DOCS_PATH}/`))
      : sendWebAppFile(files, path, reply);
  const config = { public: true };
  app.get('/', { config }, (_request, reply) => serve('/', reply));
  // One path segment only: every /api/... path stays the API's (or its 404).
  app.get('/:file', { config }, (request, reply) => serve(`/${(request.params as { file: string }).file}`, reply));
}
