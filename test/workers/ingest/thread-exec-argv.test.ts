import { expect } from 'chai';
import { threadExecArgv } from '../../../workers/ingest/thread-exec-argv';

describe('ingest: the Node options of its threads', () => {
  it("gives a compiled thread none, so that it inherits the process's, V8's included", () => {
    expect(threadExecArgv('/app/dist/workers/ingest/index-thread.js', ['--max-semi-space-size=64'])).to.equal(undefined);
  });

  it("gives a thread run from the sources the process's module hooks and ts-node's, and no V8 option", () => {
    const execArgv = ['--max-semi-space-size=64', '-r', 'ts-node/register/transpile-only', '--require=./test/setup.ts', '--cpu-prof'];
    expect(threadExecArgv('/app/workers/ingest/index-thread.ts', execArgv)).to.deep.equal([
      '-r',
      'ts-node/register/transpile-only',
      '--require=./test/setup.ts',
      '-r',
      'ts-node/register/transpile-only',
    ]);
  });
});
