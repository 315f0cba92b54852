/**
 * The container files, checked without a Docker engine: docker-compose.yml and
 * docker-compose.contracts.yml against the Compose Specification's JSON schema and then for what
 * Marque needs from them; the Dockerfile's stages, user, environment and health check (whose
 * command is run here against a Marque server); and every `marque` command that the compose files
 * and the Dockerfile run or document, against the usage text of bin/cli.ts.
 *
 * compose-spec.schema.json is the Compose Specification schema (JSON Schema draft-07) as shipped
 * in the npm package dclint@3.1.0 (`schemas/compose.schema.json`, MIT licence), byte for byte the
 * compose-spec/compose-spec repository's `schema/compose-spec.json` at commit 58a2548c
 * (2025-07-21). Only its layout was changed (Prettier); the parsed JSON is identical (sha256 of the
 * file as shipped: 46b7d35f19dd93a05f8fea530291bf84d881c1791ec167ecf0e6fb94e639d496). To update:
 * `npm pack dclint`, copy that file here, run Prettier on it.
 */
import { expect } from 'chai';
import Ajv, { type ValidateFunction } from 'ajv';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { readConfig, WORKER_NAMES } from '../../bin/config';
import { serveDataDir, type DataDirServer } from '../support/data-dir-server';
import composeSpec from './compose-spec.schema.json';

const ROOT = join(__dirname, '..', '..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Healthcheck {
  test?: string | string[];
  disable?: boolean;
}

interface Service {
  image?: string;
  build?: Json;
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: Healthcheck;
  ports?: Array<string | JsonObject>;
  volumes?: Array<string | JsonObject>;
}

interface ComposeFile {
  services: Record<string, Service>;
}

const ENGINES = ['mongodb', 'elasticsearch', 'redis'] as const;
const WORKER_SERVICES = Object.fromEntries(WORKER_NAMES.map((name) => [`worker-${name}`, name])) as Record<string, (typeof WORKER_NAMES)[number]>;
const MARQUE_SERVICES = ['api', ...Object.keys(WORKER_SERVICES)];

/** A compose file as Compose reads it: YAML with anchors and `<<` merge keys, duplicate keys refused. */
function parseCompose(text: string): JsonObject {
  const document = parseDocument(text, { merge: true, uniqueKeys: true });
  if (document.errors.length > 0) throw new Error(document.errors.map((error) => error.message).join('\n'));
  expect(document.warnings.map((warning) => warning.message)).to.deep.equal([]);
  return document.toJS({ maxAliasCount: 100 }) as JsonObject;
}

/**
 * Compose's interpolation of `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?error}`,
 * `${VAR?error}` and `$$` in every string value (keys are not interpolated).
 */
function interpolate(value: Json, env: Record<string, string>): Json {
  if (typeof value === 'string') {
    return value.replace(
      /\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g,
      (match, braced, colon, operator, argument, bare) => {
        if (match === '$$') return '$';
        const name = (braced ?? bare) as string;
        const current = env[name];
        const missing = current === undefined || (colon === ':' && current === '');
        if (operator === '-') return missing ? (argument as string) : (current as string);
        if (operator === '?') {
          if (missing) throw new Error(`required variable ${name} is missing a value: ${argument as string}`);
          return current as string;
        }
        return current ?? '';
      },
    );
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, env));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, env)]));
  return value;
}

function loadCompose(file: string, env: Record<string, string>): { raw: ComposeFile; resolved: ComposeFile; text: string } {
  const text = read(file);
  const raw = parseCompose(text);
  return { raw: raw as unknown as ComposeFile, resolved: interpolate(raw, env) as unknown as ComposeFile, text };
}

let compiled: ValidateFunction | null = null;

function schemaErrors(document: unknown): string[] {
  if (compiled === null) {
    // The schema's `$schema` is https://json-schema.org/draft-07/schema: draft-07, Ajv's default
    // class, which registers that meta-schema under its http id: the schema is checked against that.
    const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
    expect(ajv.validateSchema({ ...composeSpec, $schema: 'http://json-schema.org/draft-07/schema#' }), JSON.stringify(ajv.errors)).to.equal(true);
    compiled = ajv.compile(composeSpec);
  }
  const validate = compiled;
  return validate(document)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
}

function environmentOf(service: Service): Record<string, string> {
  const environment = service.environment ?? {};
  if (Array.isArray(environment)) {
    return Object.fromEntries(
      environment.map((entry) => {
        const at = entry.indexOf('=');
        return at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(environment).map(([key, value]) => [key, value === null ? '' : String(value)]));
}

function commandOf(service: Service): string[] {
  const command = service.command ?? [];
  return typeof command === 'string' ? command.split(/\s+/).filter((word) => word !== '') : command;
}

function healthTest(service: Service): string {
  const test = service.healthcheck?.test;
  return Array.isArray(test) ? test.join(' ') : (test ?? '');
}

function dependencies(service: Service): Record<string, string | undefined> {
  const dependsOn = service.depends_on ?? {};
  if (Array.isArray(dependsOn)) return Object.fromEntries(dependsOn.map((name) => [name, undefined]));
  return Object.fromEntries(Object.entries(dependsOn).map(([name, dependency]) => [name, dependency.condition]));
}

/** Host port a service publishes for a container port, with the host address it binds. */
function published(service: Service, containerPort: number): { address: string; port: number } | null {
  for (const entry of service.ports ?? []) {
    if (typeof entry !== 'string') continue;
    const match = /^(?:(\d+\.\d+\.\d+\.\d+):)?(\d+):(\d+)$/.exec(entry);
    if (match && Number(match[3]) === containerPort) return { address: match[1] ?? '0.0.0.0', port: Number(match[2]) };
  }
  return null;
}

/** The usage text of `marque help`, read from bin/cli.ts. */
function usageText(): string {
  const match = /const USAGE = `([\s\S]*?)`;/.exec(read('bin/cli.ts'));
  if (!match) throw new Error('USAGE not found in bin/cli.ts');
  return match[1]!;
}

/** Each usage entry: its command words (before options and placeholders) and its whole line. */
function usageEntries(): Array<{ words: string[]; line: string }> {
  return usageText()
    .split('\n')
    .filter((line) => /^ {2}[a-z]/.test(line))
    .map((line) => {
      // The synopsis ends where two or more spaces lead to the description.
      const synopsis = line.trim().split(/\s{2,}/)[0]!;
      const words: string[] = [];
      for (const token of synopsis.split(/\s+/)) {
        if (!/^[a-z][a-z-]*$/.test(token)) break;
        words.push(token);
      }
      return { words, line: synopsis };
    });
}

/** Words of a shell command line, quotes removed, up to a `#` comment. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(#.*$)|(\S+)/g)) {
    if (match[3] !== undefined) break;
    words.push(match[1] ?? match[2] ?? match[4]!);
  }
  return words;
}

/** Why `args` is not a command of the usage text (null: it is one, with options it documents). */
function usageProblem(args: string[]): string | null {
  const entry = usageEntries().find(({ words }) => words.length > 0 && words.every((word, i) => args[i] === word));
  if (!entry) return `'${args.join(' ')}' is no command of marque's usage text`;
  const unknown = args.filter((arg) => arg.startsWith('--') && !new RegExp(`(^|[\\s\\[])${arg.split('=')[0]}(\\s|\\]|$)`).test(entry.line));
  return unknown.length > 0 ? `'${args.join(' ')}': ${unknown.join(', ')} not in '${entry.line}'` : null;
}

/** `docker compose … run --rm SERVICE ARGS…` lines in a file's comments. */
function documentedRuns(text: string): Array<{ service: string; args: string[] }> {
  return text
    .split('\n')
    .map((line) => /^#\s*docker compose (?:-f \S+ )?run --rm (\S+) (.+)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ service: match[1]!, args: shellWords(match[2]!) }));
}

interface DockerInstruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions, continuation lines joined, comments and the parser directive dropped. */
function dockerInstructions(text: string): DockerInstruction[] {
  const logical: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const full = (pending + line).trim();
    pending = '';
    if (full !== '') logical.push(full);
  }
  return logical.map((line) => {
    const at = line.search(/\s/);
    return { keyword: line.slice(0, at).toUpperCase(), args: line.slice(at).trim() };
  });
}

/** Instructions grouped by build stage (each starts with its FROM). */
function dockerStages(instructions: DockerInstruction[]): DockerInstruction[][] {
  const stages: DockerInstruction[][] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') stages.push([instruction]);
    else stages.at(-1)?.push(instruction);
  }
  return stages;
}

/** ENV key=value pairs of some instructions (both the `k=v k2=v2` and the legacy `k v` form). */
function dockerEnv(instructions: DockerInstruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { keyword, args } of instructions) {
    if (keyword !== 'ENV') continue;
    if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(args)) {
      const [key, ...value] = args.split(/\s+/);
      env[key!] = value.join(' ');
      continue;
    }
    for (const match of args.matchAll(/([A-Za-z_][A-Za-z0-9_.]*)=("([^"]*)"|(\S*))/g)) env[match[1]!] = match[3] ?? match[4] ?? '';
  }
  return env;
}

/** Runs `node ARGS…` as a health check would; resolves with the exit code. */
function exitCodeOf(args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { env: { ...process.env, ...env }, timeout: 20_000 }, (error) => {
      resolve(error === null ? 0 : typeof error.code === 'number' ? error.code : 1);
    });
  });
}

const SECRET = 'compose-test-cursor-secret-0123456789';

describe('deploy: docker-compose.yml', () => {
  let raw: ComposeFile;
  let resolved: ComposeFile;
  let text: string;
  let services: Record<string, Service>;
  // Read in a hook: a broken file fails these tests, not the loading of the whole test run.
  before(() => {
    ({ raw, resolved, text } = loadCompose('docker-compose.yml', { MARQUE_CURSOR_SECRET: SECRET }));
    services = resolved.services;
  });

  it('is valid against the Compose Specification schema, as written and once interpolated', () => {
    expect(schemaErrors(raw)).to.deep.equal([]);
    expect(schemaErrors(resolved)).to.deep.equal([]);
  });

  it('has the three engines, the API and one service per worker', () => {
    expect(Object.keys(services)).to.include.members([...ENGINES, ...MARQUE_SERVICES]);
  });

  it('runs the API and the workers from one image built from ./Dockerfile, and nothing else from it', () => {
    const image = services.api!.image;
    expect(image).to.be.a('string');
    expect(services.api!.build).to.be.oneOf(['.', './']);
    const fromImage = Object.entries(services)
      .filter(([, service]) => service.image === image)
      .map(([name]) => name);
    expect(fromImage).to.have.members(MARQUE_SERVICES);
    for (const name of MARQUE_SERVICES) expect(services[name]!.build, name).to.deep.equal(services.api!.build);
  });

  it('runs `serve` on the API with MARQUE_FEED_WORKERS=none and each worker alone in its own service', () => {
    expect(commandOf(services.api!)).to.deep.equal(['serve']);
    expect(environmentOf(services.api!).MARQUE_FEED_WORKERS).to.equal('none');
    for (const [service, worker] of Object.entries(WORKER_SERVICES)) {
      expect(commandOf(services[service]!), service).to.deep.equal(['worker', worker]);
      expect(environmentOf(services[service]!), service).not.to.have.property('MARQUE_FEED_WORKERS');
    }
  });

  it('mounts the API data volume on the indexer worker, whose image indexer reads the media files and writes the image-search indexes the API reads', () => {
    const dataVolume = (services.api!.volumes ?? []).find((volume) => typeof volume === 'string' && volume.endsWith(':/var/lib/marque'));
    expect(dataVolume, 'the API keeps its data directory on a volume').to.be.a('string');
    expect(services['worker-indexer']!.volumes ?? []).to.include(dataVolume);
    // Both keep the image's MARQUE_DATA_DIR (/var/lib/marque), where the volume is mounted.
    for (const name of ['api', 'worker-indexer']) expect(environmentOf(services[name]!), name).not.to.have.property('MARQUE_DATA_DIR');
  });

  it('points every Marque service at the three engines by their service names', () => {
    for (const name of MARQUE_SERVICES) {
      const env = environmentOf(services[name]!);
      expect(new URL(env.MONGODB_URL!).hostname, name).to.equal('mongodb');
      expect(new URL(env.ELASTICSEARCH_URL!).hostname, name).to.equal('elasticsearch');
      expect(new URL(env.REDIS_URL!).hostname, name).to.equal('redis');
      // The values must be what bin/config.ts accepts.
      const config = readConfig(env);
      expect([config.mongodbUrl, config.elasticsearchUrl, config.redisUrl], name).not.to.include(null);
    }
  });

  it('gives every Marque service the same MARQUE_CURSOR_SECRET, which must be set', () => {
    const written = MARQUE_SERVICES.map((name) => environmentOf(raw.services[name]!).MARQUE_CURSOR_SECRET);
    expect(new Set(written).size).to.equal(1);
    expect(written[0]).to.match(/^\$\{MARQUE_CURSOR_SECRET:\?[^}]+\}$/);
    for (const name of MARQUE_SERVICES) expect(environmentOf(services[name]!).MARQUE_CURSOR_SECRET, name).to.equal(SECRET);
    expect(() => loadCompose('docker-compose.yml', {})).to.throw(/MARQUE_CURSOR_SECRET/);
    expect(() => loadCompose('docker-compose.yml', { MARQUE_CURSOR_SECRET: '' })).to.throw(/MARQUE_CURSOR_SECRET/);
    expect(text).to.match(/^# MARQUE_CURSOR_SECRET is required/m);
  });

  it('runs MongoDB as a replica set that its health check initiates, named in MONGODB_URL', () => {
    const command = commandOf(services.mongodb!);
    const replicaSet = command[command.indexOf('--replSet') + 1];
    expect(replicaSet).to.be.a('string').and.not.match(/^-/);
    const check = healthTest(services.mongodb!);
    expect(check).to.include('rs.initiate(').and.include(`_id: '${replicaSet}'`).and.include("host: 'mongodb:27017'");
    expect(check).to.include('isWritablePrimary');
    for (const name of MARQUE_SERVICES) {
      expect(new URL(environmentOf(services[name]!).MONGODB_URL!).searchParams.get('replicaSet'), name).to.equal(replicaSet);
    }
  });

  it('runs Elasticsearch as a single node without security', () => {
    const env = environmentOf(services.elasticsearch!);
    expect(env['discovery.type']).to.equal('single-node');
    expect(env['xpack.security.enabled']).to.equal('false');
    expect(services.elasticsearch!.image).to.match(/elasticsearch:9\./);
  });

  it('health-checks the engines and the API (on /health/ready), and starts nothing before its dependencies are healthy', () => {
    for (const name of [...ENGINES, 'api']) expect(healthTest(services[name]!), name).not.to.equal('');
    expect(healthTest(services.api!)).to.include('/health/ready');
    for (const name of MARQUE_SERVICES) {
      const dependsOn = dependencies(services[name]!);
      for (const engine of ENGINES) expect(dependsOn[engine], `${name} → ${engine}`).to.equal('service_healthy');
    }
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, condition] of Object.entries(dependencies(service))) {
        expect(services[dependency], `${name} depends on ${dependency}`).to.be.an('object');
        if (condition === 'service_healthy') expect(healthTest(services[dependency]!), `${dependency}, which ${name} waits for`).not.to.equal('');
      }
    }
  });

  it("turns the image's HTTP health check off on the workers, which have no listener", () => {
    for (const name of Object.keys(WORKER_SERVICES)) expect(services[name]!.healthcheck?.disable, name).to.equal(true);
  });

  it('publishes the API on loopback by default and no engine port', () => {
    expect(published(services.api!, 8080)).to.deep.equal({ address: '127.0.0.1', port: 8080 });
    for (const engine of ENGINES) expect(services[engine]!.ports ?? [], engine).to.deep.equal([]);
  });

  it('documents a seed command, and every documented or configured command is one of the CLI', () => {
    const runs = documentedRuns(text);
    expect(runs.some(({ service, args }) => service === 'api' && args[0] === 'seed' && args.includes('--marks'))).to.equal(true);
    for (const { service, args } of runs) {
      expect(MARQUE_SERVICES, service).to.include(service);
      expect(usageProblem(args)).to.equal(null);
    }
    for (const name of MARQUE_SERVICES) expect(usageProblem(commandOf(services[name]!)), name).to.equal(null);
  });
});

describe('deploy: docker-compose.contracts.yml', () => {
  let raw: ComposeFile;
  let resolved: ComposeFile;
  let text: string;
  let services: Record<string, Service>;
  // Read in a hook: a broken file fails these tests, not the loading of the whole test run.
  before(() => {
    ({ raw, resolved, text } = loadCompose('docker-compose.contracts.yml', {}));
    services = resolved.services;
  });

  it('is valid against the Compose Specification schema, as written and once interpolated', () => {
    expect(schemaErrors(raw)).to.deep.equal([]);
    expect(schemaErrors(resolved)).to.deep.equal([]);
  });

  it('starts just the three engines, health-checked, with MongoDB as a replica set and Elasticsearch single-node', () => {
    expect(Object.keys(services)).to.have.members([...ENGINES]);
    for (const engine of ENGINES) expect(healthTest(services[engine]!), engine).not.to.equal('');
    const command = commandOf(services.mongodb!);
    const replicaSet = command[command.indexOf('--replSet') + 1];
    expect(healthTest(services.mongodb!)).to.include('rs.initiate(').and.include(`_id: '${replicaSet}'`);
    expect(environmentOf(services.elasticsearch!)['discovery.type']).to.equal('single-node');
    expect(environmentOf(services.elasticsearch!)['xpack.security.enabled']).to.equal('false');
  });

  it('publishes each engine on loopback at the port of the URL it documents for npm run test:contracts', () => {
    const documented = Object.fromEntries(
      [...text.matchAll(/(MONGODB_URL|ELASTICSEARCH_URL|REDIS_URL)=('?)(\S+?)\2(?=\s|$)/g)].map((match) => [match[1]!, new URL(match[3]!)]),
    );
    const engines = { MONGODB_URL: ['mongodb', 27017], ELASTICSEARCH_URL: ['elasticsearch', 9200], REDIS_URL: ['redis', 6379] } as const;
    for (const [variable, [engine, containerPort]] of Object.entries(engines)) {
      const url = documented[variable];
      expect(url, variable).to.be.instanceOf(URL);
      expect(published(services[engine]!, containerPort), engine).to.deep.equal({ address: '127.0.0.1', port: Number(url!.port) });
      expect(url!.hostname, variable).to.equal('127.0.0.1');
    }
    expect(text).to.include('npm run test:contracts');
  });

  it('has an npm run test:contracts that runs the port contract suites of every adapter, MongoDB, Elasticsearch and Redis included', () => {
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    const script = pkg.scripts['test:contracts'];
    expect(script).to.be.a('string');
    expect(script).to.include('--no-config').and.include("--grep 'contract: '").and.include("'test/datasources/**/*.test.ts'");
    for (const file of ['mongo/document-store.test.ts', 'elastic/search-index.test.ts', 'redis/key-value.test.ts']) {
      const source = read(join('test', 'datasources', file));
      expect(source, file).to.match(/describe\w*Contract\(/);
    }
  });
});

describe('deploy: Dockerfile', () => {
  let stages: DockerInstruction[][];
  let runtime: DockerInstruction[];
  let runs: string[];
  before(() => {
    const instructions = dockerInstructions(read('Dockerfile'));
    stages = dockerStages(instructions);
    runtime = stages.at(-1) ?? [];
    runs = instructions.filter(({ keyword }) => keyword === 'RUN').map(({ args }) => args);
  });

  it('is a multi-stage build: npm ci and npm run build in one stage, production dependencies only in the image', () => {
    expect(stages.length).to.be.at.least(2);
    expect(runs.some((run) => /\bnpm ci\b/.test(run) && !run.includes('--omit=dev'))).to.equal(true);
    expect(runs.some((run) => /\bnpm run build\b/.test(run))).to.equal(true);
    expect(runs.some((run) => /\bnpm ci\b.*--omit=dev/.test(run))).to.equal(true);
    // better-sqlite3 is native: compiled where the toolchain is, copied into the runtime stage.
    expect(runs.some((run) => /apt-get install[^&]*\bpython3\b[^&]*\bmake\b[^&]*\bg\+\+/.test(run))).to.equal(true);
    expect(runs.some((run) => /npm rebuild better-sqlite3/.test(run))).to.equal(true);
    const copies = runtime.filter(({ keyword }) => keyword === 'COPY').map(({ args }) => args);
    expect(copies.some((copy) => /--from=\S+ \S*node_modules/.test(copy))).to.equal(true);
    expect(copies.some((copy) => /--from=\S+ \S*dist/.test(copy))).to.equal(true);
    expect(
      runtime
        .filter(({ keyword }) => keyword === 'RUN')
        .map(({ args }) => args)
        .join('\n'),
    ).not.to.match(/npm (ci|install)|apt-get install/);
  });

  it('runs as a non-root user', () => {
    const users = runtime.filter(({ keyword }) => keyword === 'USER').map(({ args }) => args.split(':')[0]);
    expect(users).to.have.length.at.least(1);
    expect(users.at(-1)).not.to.be.oneOf(['root', '0']);
  });

  it('sets MARQUE_ENV=production and HOST=0.0.0.0, exposes 8080, and enters through node bin/marque.js serve', () => {
    const env = dockerEnv(runtime);
    expect(env.MARQUE_ENV).to.equal('production');
    expect(env.HOST).to.equal('0.0.0.0');
    expect(readConfig(env).environment).to.equal('production');
    expect(runtime.filter(({ keyword }) => keyword === 'EXPOSE').map(({ args }) => args)).to.include('8080');
    const entrypoint = runtime.find(({ keyword }) => keyword === 'ENTRYPOINT');
    expect(JSON.parse(entrypoint!.args)).to.deep.equal(['node', 'bin/marque.js']);
    const cmd = JSON.parse(runtime.find(({ keyword }) => keyword === 'CMD')!.args) as string[];
    expect(usageProblem(cmd)).to.equal(null);
  });

  it('copies what the service reads at run time: package.json, bin/marque.js, schema/ and data/', () => {
    const sources = runtime
      .filter(({ keyword, args }) => keyword === 'COPY' && !args.startsWith('--from'))
      .map(({ args }) => args.split(/\s+/)[0]!.replace(/\/$/, ''));
    expect(sources).to.include.members(['package.json', 'bin/marque.js', 'schema', 'data']);
  });

  it('has a .dockerignore keeping out host dependencies, builds, local state and secrets', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(ignored).to.include.members(['node_modules', 'dist', '.git', '.env', 'data/*.sqlite*', 'data/demo-key.txt', 'data/cursor-secret.key']);
    expect(ignored).not.to.include.members(['schema', 'data', 'package-lock.json']);
  });

  describe('health checks, run against a Marque server', function () {
    this.timeout(60_000);
    const dockerCheck = (): string[] => {
      const check = runtime.find(({ keyword }) => keyword === 'HEALTHCHECK');
      expect(check, 'HEALTHCHECK').not.to.equal(undefined);
      const json = /\bCMD\s+(\[.*\])$/.exec(check!.args);
      expect(json, 'HEALTHCHECK CMD in exec form').not.to.equal(null);
      const command = JSON.parse(json![1]!) as string[];
      expect(command[0]).to.equal('node');
      return command.slice(1);
    };
    const composeCheck = (port: number): string[] => {
      const test = loadCompose('docker-compose.yml', { MARQUE_CURSOR_SECRET: SECRET }).resolved.services.api!.healthcheck!.test as string[];
      expect(test.slice(0, 2)).to.deep.equal(['CMD', 'node']);
      return test.slice(2).map((arg) => arg.replace('127.0.0.1:8080/', `127.0.0.1:${port}/`));
    };

    let dataDir: string;
    let serving: DataDirServer | undefined;
    let refusing: HttpServer;
    let refusingPort: number;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'marque-deploy-'));
      serving = await serveDataDir(dataDir, { workers: [], runRetention: false });
      refusing = createHttpServer((_request, response) => response.writeHead(503).end('{"status":"unhealthy"}'));
      await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
      refusingPort = (refusing.address() as AddressInfo).port;
    });

    after(async () => {
      if (refusing) await new Promise((resolve) => refusing.close(resolve));
      await serving?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it("the Dockerfile's HEALTHCHECK passes on a ready server and fails on a 503 or on nothing listening", async () => {
      expect(dockerCheck().join(' ')).to.include('/health/ready');
      expect(await exitCodeOf(dockerCheck(), { PORT: String(serving!.port) })).to.equal(0);
      expect(await exitCodeOf(dockerCheck(), { PORT: String(refusingPort) })).to.equal(1);
      const closed = createHttpServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      expect(await exitCodeOf(dockerCheck(), { PORT: String(closedPort) })).to.equal(1);
    });

    it("the API service's health check passes on a ready server and fails on a 503", async () => {
      expect(await exitCodeOf(composeCheck(serving!.port), {})).to.equal(0);
      expect(await exitCodeOf(composeCheck(refusingPort), {})).to.equal(1);
    });
  });
});
