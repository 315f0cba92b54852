import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HTTP_NODE_OPTIONS } from '../../bin/config';
import { workerExecArgv } from '../../bin/serve';

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
});
