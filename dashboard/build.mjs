// Bundles the dashboard (dashboard/src) into dist/dashboard: one script and one stylesheet whose
// names carry a digest of their content, plus manifest.json naming them for rest/dashboard-page.ts.
// Every dependency (Preact, uPlot) is bundled: the page loads nothing from another host.
// Run by `npm run build:dashboard` (part of `build` and `prepare`) and by the tests when missing.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const outdir = join(root, 'dist', 'dashboard');
const assets = join(outdir, 'assets');

rmSync(outdir, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

const result = await build({
  entryPoints: { app: join(root, 'dashboard', 'src', 'main.tsx') },
  bundle: true,
  minify: true,
  sourcemap: false,
  format: 'esm',
  target: ['es2022'],
  platform: 'browser',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: assets,
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'linked',
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((file) => relative(assets, join(root, file)));
const script = outputs.find((file) => file.endsWith('.js'));
const stylesheet = outputs.find((file) => file.endsWith('.css'));
if (!script || !stylesheet) throw new Error(`dashboard build: expected one .js and one .css output, got ${outputs.join(', ')}`);
writeFileSync(join(outdir, 'manifest.json'), JSON.stringify({ script, stylesheet, files: outputs }, null, 2) + '\n');
process.stdout.write(`dashboard: ${outputs.length} files in ${relative(root, outdir)}\n`);
