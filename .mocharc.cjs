// One mocha run over every package: tests run on the TypeScript sources
// (the "source" export condition) through tsx, so no build is needed first.
module.exports = {
  'node-option': ['conditions=source', 'import=tsx'],
  spec: ['core/test/**/*.test.ts', 'rules/test/**/*.test.ts', 'plugins/test/**/*.test.ts',
    'adapters/test/**/*.test.ts', 'gateway/test/**/*.test.ts'],
  reporter: './scripts/summary-reporter.cjs',
  timeout: 20000,
  recursive: true,
};
