'use strict';
// Mocha's spec reporter, followed by the closing line CI reads: "N passed, N failed".
const Mocha = require('mocha');
const { EVENT_RUN_END } = Mocha.Runner.constants;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures } = runner.stats;
      process.stdout.write(`\n${passes} passed, ${failures} failed\n`);
    });
  }
}

module.exports = SummaryReporter;
