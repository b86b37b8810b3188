const { createConfig } = require('../webpack.base');

module.exports = createConfig({
  dir: __dirname,
  name: 'mf_master_data',
  exposes: { './routes': './src/routes.tsx' },
});
