/**
 * `/dashboard`: the internal dashboard (issue 22), a small Preact front end in dashboard/src
 * bundled at build time by esbuild (`npm run build:dashboard`, part of `build` and `prepare`) into
 * dist/dashboard: one script and one stylesheet whose names carry a digest of their content, and
 * manifest.json naming them. This mount reads them once and serves them with the page.
 *
 * The page holds no data and loads without a key; it asks for one, keeps it in the tab's
 * sessionStorage and sends it with every request to /graphql, which runs the usual stages. Every
 * asset comes from this origin (the Content-Security-Policy holds the browser to it), so the page
 * works offline. Like /docs, not a route-table route: HTML and static files, no limit, no log row.
 *
 * Without a build (a checkout where `npm run build:dashboard` has not run) the page answers 503
 * saying so, instead of stopping the server: every other surface works without the bundle.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { projectRoot } from '../resolvers/project-root';
import { SAME_ORIGIN_POLICY, sendStaticFile, type StaticFile } from './static-files';

export const DASHBOARD_PATH = '/dashboard';
const ASSETS_PATH = `${DASHBOARD_PATH}/assets`;

/** Where `npm run build:dashboard` writes the bundle. */
export function dashboardBuildDir(): string {
  return join(projectRoot(), 'dist', 'dashboard');
}

interface Manifest {
  script: string;
  stylesheet: string;
  files: string[];
}

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
};

function staticFile(body: Buffer, contentType: string): StaticFile {
  return { body, contentType, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
}

function loadBundle(dir: string): { page: StaticFile; assets: Map<string, StaticFile> } | null {
  const manifestFile = join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) return null;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const assets = new Map<string, StaticFile>();
  for (const name of manifest.files) {
    const extension = name.slice(name.lastIndexOf('.') + 1);
    assets.set(name, staticFile(readFileSync(join(dir, 'assets', name)), CONTENT_TYPES[extension] ?? 'application/octet-stream'));
  }
  const page = Buffer.from(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>Marque dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS_PATH}/${manifest.stylesheet}">
<script type="module" src="${ASSETS_PATH}/${manifest.script}"></script>
</head>
<body>
<div id="app"><noscript>The Marque dashboard needs JavaScript.</noscript></div>
</body>
</html>
`);
  return { page: staticFile(page, 'text/html; charset=utf-8'), assets };
}

export function mountDashboard(app: FastifyInstance, options: { dir?: string } = {}): void {
  const dir = options.dir ?? dashboardBuildDir();
  const bundle = loadBundle(dir);

  // The page is revalidated on every visit (a new build names new asset files); the assets carry
  // their digest in their names, so a browser keeps them for a year without asking again.
  app.get(DASHBOARD_PATH, async (request, reply) => {
    reply.header('content-security-policy', SAME_ORIGIN_POLICY).header('referrer-policy', 'no-referrer');
    if (!bundle) {
      return reply
        .status(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(`The dashboard has not been built: run npm run build:dashboard (expected ${join(dir, 'manifest.json')}).\n`);
    }
    return sendStaticFile(request, reply, bundle.page, 'no-cache');
  });
  // Fastify tells /dashboard/ from /dashboard: send the trailing-slash form to the page.
  app.get(`${DASHBOARD_PATH}/`, async (_request, reply) => reply.redirect(DASHBOARD_PATH, 301));
  app.get<{ Params: { name: string } }>(`${ASSETS_PATH}/:name`, async (request, reply) => {
    const found = bundle?.assets.get(request.params.name);
    // Unknown names fall through to the app's 404 (the catalog's error envelope).
    if (!found) {
      reply.callNotFound();
      return reply;
    }
    return sendStaticFile(request, reply, found, 'public, max-age=31536000, immutable');
  });
}

/** For tests and tools: whether a bundle exists where the server looks for it. */
export function dashboardBuilt(dir = dashboardBuildDir()): boolean {
  return existsSync(join(dir, 'manifest.json'));
}
