const { createConfig } = require('../webpack.base');

module.exports = createConfig({
  dir: __dirname,
  name: 'mf_certification',
  exposes: { './routes': './src/routes.tsx' },
});
