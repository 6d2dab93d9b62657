// Mocha settings for `npm test`. Tests run on the TypeScript sources (the
// "source" export condition) through tsx, so no build is needed first. The
// default spec list lives in scripts/run-tests.mjs, so that a path given on
// the command line runs only that.
module.exports = {
  'node-option': ['conditions=source', 'import=tsx'],
  reporter: './scripts/summary-reporter.cjs',
  timeout: 20000,
  recursive: true,
};
