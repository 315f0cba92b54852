import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HTTP_NODE_OPTIONS } from '../../bin/config';
import { workerExecArgv } from '../../bin/serve';
import { MARQUE } from '../support/serve-process';

describe('bin: the Node options of the processes that serve HTTP', () => {
  it('are those `npm start` gives the process it starts', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { scripts: { start: string } };
    expect(manifest.scripts.start.split(' ')).to.deep.equal(['node', ...HTTP_NODE_OPTIONS, 'bin/marque.js', 'serve']);
  });

  it("reach the cluster workers beside the primary's own options, without its -e script", () => {
    expect(workerExecArgv(['--enable-source-maps', '-e', "require('x')", '-r', 'ts-node/register'])).to.deep.equal([
      '--enable-source-maps',
      '-r',
      'ts-node/register',
      ...HTTP_NODE_OPTIONS,
    ]);
  });

  it('give way to the same option set on the command line or in NODE_OPTIONS', () => {
    expect(workerExecArgv(['--max-semi-space-size=8'])).to.deep.equal(['--max-semi-space-size=8']);
    expect(workerExecArgv([], '--max-semi-space-size=16 --trace-warnings')).to.deep.equal([]);
  });

  it("let a process started with them run its threads (the seed's index thread)", function () {
    this.timeout(120_000);
    const dataDir = mkdtempSync(join(tmpdir(), 'marque-node-options-'));
    try {
      const run = spawnSync(process.execPath, [...HTTP_NODE_OPTIONS, MARQUE, 'seed', '--marks', '200'], {
        env: { ...process.env, MARQUE_DATA_DIR: dataDir, MARQUE_LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      });
      expect(run.stderr).not.to.contain('ERR_WORKER_INVALID_EXEC_ARGV');
      expect(run.status, run.stderr).to.equal(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
