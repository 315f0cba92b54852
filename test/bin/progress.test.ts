import { expect } from 'chai';
import { Writable } from 'node:stream';
import { createProgress, formatDuration, RateMeter } from '../../bin/progress';

/** A non-terminal stream that keeps what was written. */
function capture(): { stream: NodeJS.WriteStream; lines: () => string[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line !== ''),
  };
}

describe('bin/progress: progress of long CLI work', () => {
  it('has no rate or ETA until a second after the first update, then measures from that update', () => {
    let now = 10_000;
    const meter = new RateMeter(() => now);
    // The first batch took long (start-up): it must not count.
    meter.record(500, 500);
    expect(meter.rate()).to.equal(null);
    now += 400;
    meter.record(900, 900);
    expect(meter.rate()).to.equal(null);
    now += 1600;
    meter.record(2500, 2500);
    expect(meter.rate()).to.equal(1000);
    expect(meter.eta(10_500)).to.equal(8);
  });

  it('counts one thing (records) while advancing by another (bytes)', () => {
    let now = 0;
    const meter = new RateMeter(() => now);
    meter.record(0, 0);
    now = 2000;
    meter.record(50_000_000, 6000);
    expect(meter.rate()).to.equal(3000);
    expect(meter.eta(100_000_000)).to.equal(2);
  });

  it('writes plain lines when the output is not a terminal: at most one per interval, and the last state', () => {
    let now = 0;
    const out = capture();
    const progress = createProgress(out.stream, { clock: () => now, intervalMs: 5000 });
    const bar = progress.bar('ingest uspto', 1000, 'records');
    for (let done = 100; done < 1000; done += 100) {
      now += 1000;
      bar.update(done);
    }
    // First update at 1 s (100), line at 5 s (500): 400 records in 4 s, 500 left.
    expect(out.lines()).to.deep.equal(['ingest uspto: 500 records (50 %), 100 records/s, ETA 5s']);
    now += 500;
    bar.update(1000);
    expect(out.lines()).to.have.length(2);
    // 900 records in 8.5 s since the first update.
    expect(out.lines()[1]).to.equal('ingest uspto: 1,000 records (100 %), 106 records/s, ETA 0s');
    progress.stop();
    expect(out.lines()).to.have.length(2);
  });

  it('formats durations for people', () => {
    expect(formatDuration(42)).to.equal('42s');
    expect(formatDuration(125)).to.equal('2m 05s');
    expect(formatDuration(7260)).to.equal('2h 01m');
  });
});
