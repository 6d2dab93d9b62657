/**
 * The browser apps built by `npm run build` into web/dist/<app>/, found
 * through the @klvscope/web package and served from memory: the viewer by
 * the streaming module, the dashboard by the inspection service, the relay
 * console by the relay. A service whose app is not built answers its pages
 * with a 404 error that says to run `npm run build`, and keeps its REST
 * interface.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { loadStaticFiles, type StaticFiles } from './static-files.js';

export type WebAppName = 'viewer' | 'dashboard' | 'relay-console';

/** The app's files, or null when @klvscope/web is not installed or the app is not built. */
export async function webAppFiles(app: WebAppName): Promise<StaticFiles | null> {
  let packageJson: string;
  try {
    packageJson = createRequire(import.meta.url).resolve('@klvscope/web/package.json');
  } catch {
    return null;
  }
  return loadStaticFiles(join(dirname(packageJson), 'dist', app));
}

/** Sends the file at a URL path (`/` is index.html), or the JSON 404 body when the app has no such file. */
export function sendWebAppFile(files: StaticFiles, urlPath: string, reply: FastifyReply): FastifyReply {
  const path = urlPath.split('?')[0];
  const file = files.get(path === '/' ? '/index.html' : path);
  if (file === undefined) return reply.code(404).send({ error: { code: 'ERR_ROUTE_NOT_FOUND', message: `no file ${path}` } });
  return reply.type(file.contentType).header('cache-control', 'no-cache').send(file.bytes);
}

/**
 * The app's pages at `/` and `/:file`, answered without the key (they hold
 * no data; the page asks for the key itself). One path segment only, so
 * nothing under an API prefix is shadowed. With no files, every page throws
 * `notBuilt()`, each service's own error that says how to build its app.
 */
export function installWebAppPages(app: FastifyInstance, files: StaticFiles | null, notBuilt: () => Error): void {
  const options = { config: { public: true } };
  const handler = (request: { url: string }, reply: FastifyReply): FastifyReply => {
    if (files === null) throw notBuilt();
    return sendWebAppFile(files, request.url, reply);
  };
  app.get('/', options, handler);
  app.get('/:file', options, handler);
}
