const { createConfig } = require('../webpack.base');

module.exports = createConfig({
  dir: __dirname,
  name: 'mf_reports',
  exposes: { './routes': './src/routes.tsx' },
});
