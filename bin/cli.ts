/**
 * The `marque` command line: serve, worker, seed, ingest, marks, orgs, keys, merge, feedback. Every command honours
 * MARQUE_DATA_DIR and works while a server runs on the same directory (SQLite in WAL mode).
 *
 * The server's composition (compose.ts, serve.ts, the MCP transport) is imported only by the
 * commands that run it, and the demo's generator only by `seed`, so the others (ingest, marks,
 * orgs, keys, merge, feedback) start without the HTTP stack, GraphQL and the workers: about a
 * tenth of the start-up time and a third of the memory.
 */
import { parseArgs } from 'node:util';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isKnownScope } from '../domain/scopes';
import { parseTimestamp } from '../domain/validation';
import { createApiKey } from '../resolvers/accounts/api-keys';
import { createOrganization, findOrganization, PLAN_NAMES } from '../resolvers/accounts/organizations';
import { feedbackObject } from '../resolvers/feedback/reports';
import { transitionFeedback, triageQueue } from '../resolvers/feedback/transitions';
import { ApiError } from '../domain/errors';
import { MERGE_KINDS, mergeParties, type MergeKind } from '../resolvers/merges/merge';
import { err, onStopSignals, positiveInt, print, progressFor, required, UsageError, withAdapters } from './cli-support';
import { closeAdapters, cursorSecret, openAdapters } from './adapters';
import { ConfigError, readConfig, WORKER_NAMES, type Config, type WorkerName } from './config';
import { ingest } from './ingest';
import { marks } from './marks';
import type { PlanName } from '../domain/plans';

const USAGE = `Usage: marque <command> [options]

  serve [--workers N]                     run the API (and its workers) on HOST:PORT; N HTTP processes
                                          (default MARQUE_WORKERS, or the machine's cores)
  worker indexer                          run the search indexer alone
  worker watches                          run the watch evaluator alone (or stand by while serve runs it)
  worker webhooks                         run the webhook dispatcher alone (leave it out of serve: MARQUE_FEED_WORKERS)
  mcp [--toolsets a,b]                    serve the MCP tools over stdio for a local agent, acting with MARQUE_API_KEY;
                                          only those of the toolsets named (default MARQUE_MCP_TOOLSETS, or all)
  seed --marks N [--seed S] [--render-logos]
                                          fill an empty store with N generated marks and index them; logos
                                          are rendered when first read, or all now with --render-logos
  orgs create --name NAME [--plan beta]   create an organization (prints JSON)
  keys create --org ORG_ID --scopes a,b [--name N] [--expires-at ISO]
                                          create an API key (prints JSON with the secret, shown once)
  merge KIND FROM_ID INTO_ID              merge an owner, attorney, firm or entity into another
                                          (KIND: owner|attorney|firm|entity; prints JSON)
  ingest FORMAT [--dry-run] [--batch-size N] FILE_OR_DIR...
                                          load office bulk files (FORMAT: uspto, uspto-assignments,
                                          uspto-ttab, st96; .xml, .zip or directories; prints a JSON summary)
  marks add --mark-text TEXT --office CODE --classes 9,42 [--owner-name NAME] [--status pending]
                                          add a trademark application by hand (prints JSON with its id)
  marks update tm_… [--status registered] [--event CODE] [--publication-date YYYY-MM-DD]
                                          change one trademark (prints JSON with its id)
  feedback list [--status open] [--type T] [--limit 100]
                                          the triage queue: every organization's feedback reports of these
                                          statuses (comma list; default open), oldest first (prints JSON)
  feedback acknowledge ID                 mark a feedback report acknowledged (prints JSON)
  feedback resolve ID --note TEXT         resolve a feedback report with a note (prints JSON)

Environment: HOST, PORT, MARQUE_DATA_DIR (default ./data), MONGODB_URL, ELASTICSEARCH_URL, REDIS_URL.`;

function directorySize(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => {
    const stat = statSync(join(dir, name));
    return sum + (stat.isDirectory() ? directorySize(join(dir, name)) : stat.size);
  }, 0);
}

/**
 * `marque worker indexer|watches|webhooks`: one change-feed worker alone, resuming from its
 * checkpoint (the indexer with the image indexer, as in serve).
 */
async function runWorker(config: Config, name: string | undefined): Promise<void> {
  if (!(WORKER_NAMES as readonly (string | undefined)[]).includes(name)) throw new UsageError(`worker supports: ${WORKER_NAMES.join(', ')}`);
  const { createBackgroundWorkers, logToStderr, webhookOptions } = await import('./background');
  const adapters = await openAdapters(config);
  const worker = await createBackgroundWorkers(adapters, {
    ...webhookOptions(config),
    workers: [name as WorkerName],
    runRetention: false,
    workerLeaseMs: config.workerLeaseMs,
    log: logToStderr,
  });
  worker.start();
  onStopSignals(err, async () => {
    await worker.stop();
    await closeAdapters(adapters);
  });
  err(`marque: ${name} worker started; Ctrl-C to stop`);
}

/** `marque mcp`: the MCP tools over stdio, with MARQUE_API_KEY; stdout carries only the protocol. */
async function mcpStdio(config: Config, args: string[]): Promise<void> {
  if (config.apiKey === null) throw new UsageError('marque mcp needs MARQUE_API_KEY: the API key the agent acts with');
  const { values } = parseArgs({ args, options: { toolsets: { type: 'string' } } });
  const toolsets =
    values.toolsets !== undefined
      ? { names: values.toolsets, parameter: '--toolsets' }
      : config.mcpToolsets !== null
        ? { names: config.mcpToolsets, parameter: 'MARQUE_MCP_TOOLSETS' }
        : undefined;
  const { logToStderr } = await import('./background');
  const { createServer } = await import('./compose');
  const { serveStdio } = await import('../mcp/stdio');
  const { selectToolsets } = await import('../mcp/toolsets');
  const adapters = await openAdapters(config);
  const server = await createServer(adapters, cursorSecret(config), {
    log: logToStderr,
    workers: [],
    runRetention: false,
  });
  try {
    const listed = await refusalsAsUsage(async () => selectToolsets(server.mcp.tools, toolsets?.names, toolsets?.parameter ?? '--toolsets'));
    await serveStdio({
      app: server.app,
      store: adapters.store,
      tools: server.mcp.tools,
      listed,
      internalCalls: server.mcp.internalCalls,
      apiKey: config.apiKey,
      version: server.mcp.version,
      now: () => new Date(),
    });
  } finally {
    await server.close();
    await closeAdapters(adapters);
  }
}

async function seed(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { marks: { type: 'string' }, seed: { type: 'string' }, 'render-logos': { type: 'boolean' } } });
  const marks = positiveInt('marks', values.marks);
  const seedValue = positiveInt('seed', values.seed, 42);
  const { isEmptyStore, seedAndIndex } = await import('./demo');
  await withAdapters(config, async (adapters) => {
    if (!(await isEmptyStore(adapters.store))) throw new UsageError(`the store in ${config.dataDir} already holds marks; seed into an empty MARQUE_DATA_DIR`);
    const report = await seedAndIndex(config, adapters, marks, seedValue, progressFor(config), { renderLogos: values['render-logos'] === true });
    print({
      marks: report.marks,
      seed: seedValue,
      seconds: report.seconds,
      marks_per_second: Math.round(report.marks / report.seconds),
      store_marks_per_second: Math.round(report.marks / report.storeSeconds),
      index_marks_per_second: Math.round(report.marks / report.indexSeconds),
      data_dir: config.dataDir,
    });
  });
  print({ data_dir_bytes: directorySize(config.dataDir) });
}

async function orgs(config: Config, args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action !== 'create') throw new UsageError('orgs supports: create');
  const { values } = parseArgs({ args: rest, options: { name: { type: 'string' }, plan: { type: 'string' } } });
  const name = required('name', values.name);
  const plan = (values.plan ?? 'beta') as PlanName;
  if (!PLAN_NAMES.includes(plan)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  const org = await withAdapters(config, ({ store }) => createOrganization(store, { name, plan }));
  print({ id: org._id, object: 'organization', name: org.name, plan: org.plan, billing_anchor_day: org.billing_anchor_day, created_at: org.created_at });
}

async function keys(config: Config, args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action !== 'create') throw new UsageError('keys supports: create');
  const { values } = parseArgs({
    args: rest,
    options: { org: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' }, 'expires-at': { type: 'string' } },
  });
  const orgId = required('org', values.org);
  const scopes = required('scopes', values.scopes).split(',');
  const unknown = scopes.filter((s) => !isKnownScope(s) && s !== 'search:read');
  if (unknown.length > 0) throw new UsageError(`unknown scope(s): ${unknown.join(', ')}`);
  let expiresAt: string | null = null;
  if (values['expires-at'] !== undefined) {
    expiresAt = parseTimestamp(values['expires-at']);
    if (expiresAt === null || Date.parse(expiresAt) <= Date.now()) throw new UsageError('--expires-at must be an ISO 8601 time in the future');
  }
  const { key, secret } = await withAdapters(config, async ({ store }) => {
    if (!(await findOrganization(store, orgId))) throw new UsageError(`no organization ${orgId}`);
    return createApiKey(store, { organizationId: orgId, name: values.name ?? 'CLI key', scopes, expiresAt });
  });
  print({
    id: key._id,
    object: 'api_key',
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    expires_at: key.expires_at,
    created_at: key.created_at,
    secret,
  });
}

/** Runs a command's work; the catalog's refusals (a malformed ID, a move not allowed) are usage errors. */
async function refusalsAsUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError) throw new UsageError(error.detail);
    throw error;
  }
}

/** Default length of `marque feedback list`. */
const TRIAGE_LIST_DEFAULT = 100;

async function feedbackQueue(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { status: { type: 'string' }, type: { type: 'string' }, limit: { type: 'string' } } });
  const limit = values.limit === undefined ? TRIAGE_LIST_DEFAULT : Number(values.limit);
  const query = { statuses: values.status?.split(','), type: values.type ?? null, limit };
  const reports = await refusalsAsUsage(() => withAdapters(config, ({ store }) => triageQueue(store, query)));
  // The team needs to know whose report it is; customers' own views leave the organization out.
  print(reports.map((report) => ({ organization_id: report.organization_id, ...feedbackObject(report) })));
}

async function feedback(config: Config, args: string[]): Promise<void> {
  const [action, id, ...rest] = args;
  if (action === 'list') return feedbackQueue(config, args.slice(1));
  if (action !== 'acknowledge' && action !== 'resolve') throw new UsageError('feedback supports: list, acknowledge ID, resolve ID --note TEXT');
  const { values } = parseArgs({ args: rest, options: { note: { type: 'string' } } });
  const transition = action === 'resolve' ? { status: 'resolved', resolutionNote: required('note', values.note) } : { status: 'acknowledged' };
  const report = await refusalsAsUsage(() => withAdapters(config, ({ store }) => transitionFeedback(store, required('ID', id), transition, new Date())));
  print(feedbackObject(report));
}

async function merge(config: Config, args: string[]): Promise<void> {
  const [kind, fromId, intoId, ...extra] = args;
  if (kind === undefined || !(kind in MERGE_KINDS)) throw new UsageError(`merge needs KIND, one of ${Object.keys(MERGE_KINDS).join(', ')}`);
  if (fromId === undefined || intoId === undefined || extra.length > 0) throw new UsageError('merge takes KIND FROM_ID INTO_ID');
  print(await refusalsAsUsage(() => withAdapters(config, ({ store }) => mergeParties(store, kind as MergeKind, fromId, intoId))));
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  try {
    const config = readConfig();
    switch (command) {
      case 'serve':
        return await (await import('./serve')).serve(config, args);
      case 'worker':
        return await runWorker(config, args[0]);
      case 'mcp':
        return await mcpStdio(config, args);
      case 'seed':
        return await seed(config, args);
      case 'orgs':
        return await orgs(config, args);
      case 'keys':
        return await keys(config, args);
      case 'merge':
        return await merge(config, args);
      case 'feedback':
        return await feedback(config, args);
      case 'marks':
        return await marks(config, args);
      case 'ingest':
        return await ingest(config, args);
      case undefined:
      case 'help':
      case '--help':
        process.stdout.write(`${USAGE}\n`);
        return;
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      err(`marque: ${(error as Error).message}\n\n${USAGE}`);
      process.exit(2);
    }
    err(`marque: ${(error as Error).stack ?? String(error)}`);
    process.exit(1);
  }
}
