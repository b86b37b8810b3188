const { createConfig } = require('../webpack.base');

module.exports = createConfig({
  dir: __dirname,
  name: 'mf_public_check',
  exposes: { './routes': './src/routes.tsx' },
  // The public pages load alone (a QR scan): share React only, never the staff portal's libraries.
  share: ['react', 'react/', 'react-dom', 'react-dom/'],
});
