#!/usr/bin/env node
'use strict';
// Entry point of the `marque` command. Runs the compiled CLI (built by `npm install` through the
// `prepare` script); falls back to ts-node from a source checkout that has not been built.
const path = require('path');
const fs = require('fs');
const compiled = path.join(__dirname, '..', 'dist', 'bin', 'cli.js');
if (fs.existsSync(compiled)) {
  require(compiled).main(process.argv.slice(2));
} else {
  require('ts-node').register({ transpileOnly: true, project: path.join(__dirname, '..', 'tsconfig.json') });
  require('./cli.ts').main(process.argv.slice(2));
}
