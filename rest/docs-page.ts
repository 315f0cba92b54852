/**
 * `/docs`: the interactive API reference, Swagger UI (swagger-ui-dist) rendering
 * `/v1/openapi.json`. Swagger UI because it is maintained by SmartBear with frequent releases,
 * renders OpenAPI 3.1, ships one self-contained browser bundle that runs on Node 20's npm (the
 * current Scalar and Redoc packages require Node 22), and has "Authorize" for the document's HTTP
 * bearer scheme plus "Try it out" on every operation.
 *
 * Every asset is read from node_modules once, at mount, and served by Marque itself: the page works
 * offline and a Content-Security-Policy holds the browser to this origin. The page holds no data
 * and loads without a key; the requests "Try it out" sends carry the key entered under "Authorize"
 * and go through the usual stages like any other client's. The key is kept in the page's memory
 * only (no persistAuthorization: a key in localStorage would outlive the tab).
 *
 * Not a route-table route: it answers HTML and static files, not the JSON envelope, spends no limit
 * and is not logged (no exchange is opened).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SAME_ORIGIN_POLICY, sendStaticFile, type StaticFile } from './static-files';

export const DOCS_PATH = '/docs';
const ASSETS_PATH = `${DOCS_PATH}/assets`;
const OPENAPI_URL = '/v1/openapi.json';

interface Asset extends StaticFile {
  /** The URL the page refers to: it carries a digest of the content, so it can be cached for good. */
  url: string;
}

/**
 * Starts Swagger UI on the document. BaseLayout: the standalone layout's top bar would offer to
 * load any other URL's document, and its validator badge calls validator.swagger.io (validatorUrl
 * null turns that off in any layout).
 */
const INITIALIZER = `'use strict';
window.addEventListener('DOMContentLoaded', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(OPENAPI_URL)},
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: -1,
    displayRequestDuration: true,
    filter: true,
    validatorUrl: null,
    persistAuthorization: false,
  });
});
`;

/** Room around the reference, and a heading in place of the standalone layout's top bar. */
const STYLESHEET = `body { margin: 0; background: #fafafa; }
.marque-docs-header { max-width: 1460px; margin: 0 auto; padding: 16px 20px 0; font-family: sans-serif; color: #3b4151; }
.marque-docs-header p { margin: 4px 0 0; font-size: 14px; }
.marque-docs-header code { font-size: 13px; }
`;

function digest(body: Buffer): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 32);
}

function asset(name: string, body: Buffer, contentType: string): Asset {
  const hash = digest(body);
  return { body, contentType, etag: `"${hash}"`, url: `${ASSETS_PATH}/${name}?v=${hash.slice(0, 12)}` };
}

/** The files of swagger-ui-dist this page uses, read from wherever npm put the package. */
function loadAssets(): Map<string, Asset> {
  const dist = dirname(require.resolve('swagger-ui-dist/package.json'));
  const read = (file: string): Buffer => readFileSync(join(dist, file));
  return new Map([
    ['swagger-ui-bundle.js', asset('swagger-ui-bundle.js', read('swagger-ui-bundle.js'), 'text/javascript; charset=utf-8')],
    ['swagger-ui.css', asset('swagger-ui.css', read('swagger-ui.css'), 'text/css; charset=utf-8')],
    ['favicon-32x32.png', asset('favicon-32x32.png', read('favicon-32x32.png'), 'image/png')],
    ['docs.js', asset('docs.js', Buffer.from(INITIALIZER), 'text/javascript; charset=utf-8')],
    ['docs.css', asset('docs.css', Buffer.from(STYLESHEET), 'text/css; charset=utf-8')],
  ]);
}

function renderPage(assets: Map<string, Asset>): Buffer {
  const url = (name: string): string => {
    const found = assets.get(name);
    if (!found) throw new Error(`docs page: no asset ${name}`);
    return found.url;
  };
  return Buffer.from(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Marque API reference</title>
<link rel="icon" type="image/png" href="${url('favicon-32x32.png')}">
<link rel="stylesheet" href="${url('swagger-ui.css')}">
<link rel="stylesheet" href="${url('docs.css')}">
</head>
<body>
<header class="marque-docs-header">
<p>Generated from <a href="${OPENAPI_URL}">${OPENAPI_URL}</a>. Reading needs no key; to try a request, choose <b>Authorize</b> and enter an API key (<code>mq_…</code>), then <b>Try it out</b> on an operation.</p>
</header>
<div id="swagger-ui"></div>
<script src="${url('swagger-ui-bundle.js')}"></script>
<script src="${url('docs.js')}"></script>
</body>
</html>
`);
}

export function mountDocs(app: FastifyInstance): void {
  const assets = loadAssets();
  const body = renderPage(assets);
  const page = { body, contentType: 'text/html; charset=utf-8', etag: `"${digest(body)}"` };

  // The page is revalidated on every visit (a new release names new asset URLs); the assets it
  // names carry their digest, so a browser keeps them for a year without asking again.
  app.get(DOCS_PATH, async (request, reply) => {
    reply.header('content-security-policy', SAME_ORIGIN_POLICY).header('referrer-policy', 'no-referrer');
    return sendStaticFile(request, reply, page, 'no-cache');
  });
  // Fastify tells /docs/ from /docs: send the trailing-slash form to the page.
  app.get(`${DOCS_PATH}/`, async (_request, reply) => reply.redirect(DOCS_PATH, 301));
  app.get<{ Params: { name: string } }>(`${ASSETS_PATH}/:name`, async (request, reply) => {
    const found = assets.get(request.params.name);
    // Unknown names fall through to the app's 404 (the catalog's error envelope).
    if (!found) {
      reply.callNotFound();
      return reply;
    }
    return sendStaticFile(request, reply, found, 'public, max-age=31536000, immutable');
  });
}
