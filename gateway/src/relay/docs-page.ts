/**
 * The interactive documentation page at /api/docs/: Swagger UI from the
 * swagger-ui-dist package (read from node_modules at start, no CDN, works
 * with no network) over /api/openapi.json. Only the files the page loads
 * are served, from memory.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { RELAY_API_PREFIX } from './relay-address.js';

const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

export const DOCS_PATH = `${RELAY_API_PREFIX}/docs`;
export const OPENAPI_PATH = `${RELAY_API_PREFIX}/openapi.json`;

const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>klvscope channel relay: API</title>
  <link rel="stylesheet" href="swagger-ui.css">
  <link rel="stylesheet" href="index.css">
  <link rel="icon" type="image/png" href="favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="swagger-ui-bundle.js"></script>
  <script src="swagger-ui-standalone-preset.js"></script>
  <script src="docs-init.js"></script>
</body>
</html>
`;

// A file of its own rather than an inline script: a Content-Security-Policy without 'unsafe-inline' still lets the page run.
const INIT_JS = `window.ui = SwaggerUIBundle({ url: '${OPENAPI_PATH}', dom_id: '#swagger-ui', deepLinking: true, presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout', validatorUrl: null });\n`;

export interface DocsFile {
  bytes: Buffer;
  contentType: string;
}

/** Reads the page's files once; null when swagger-ui-dist is not installed (then the page answers 404 saying so). */
export async function loadDocsFiles(): Promise<Map<string, DocsFile> | null> {
  let folder: string;
  try {
    folder = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch {
    return null;
  }
  const files = new Map<string, DocsFile>();
  for (const [name, contentType] of Object.entries(ASSETS)) files.set(name, { bytes: await readFile(join(folder, name)), contentType });
  files.set('index.html', { bytes: Buffer.from(INDEX_HTML), contentType: 'text/html; charset=utf-8' });
  files.set('docs-init.js', { bytes: Buffer.from(INIT_JS), contentType: 'text/javascript; charset=utf-8' });
  return files;
}

/** `open`: answered without the API key (on loopback). */
export function installDocsPage(app: FastifyInstance, files: Map<string, DocsFile> | null, openApi: () => unknown, open: boolean): void {
  const config = { public: open };
  app.get(OPENAPI_PATH, { config }, () => openApi());
  // The page's relative links need the trailing slash.
  app.get(DOCS_PATH, { config }, (_request, reply) => reply.redirect(`${DOCS_PATH}/`, 301));
  app.get(`${DOCS_PATH}/`, { config }, (_request, reply) => serve(files, 'index.html', reply));
  app.get(`${DOCS_PATH}/:file`, { config }, (request, reply) => serve(files, (request.params as { file: string }).file, reply));
}

function serve(files: Map<string, DocsFile> | null, name: string, reply: FastifyReply): FastifyReply {
  const file = files?.get(name);
  if (file === undefined) {
    const message = files === null ? 'the docs page needs the swagger-ui-dist package (npm install)' : `no file ${name} in the docs page`;
    return reply.code(404).send({ error: { code: 'ERR_ROUTE_NOT_FOUND', message } });
  }
  return reply.type(file.contentType).header('cache-control', 'no-cache').send(file.bytes);
}
