const { createConfig } = require('../webpack.base');

module.exports = createConfig({ dir: __dirname, name: 'shell', host: true, title: 'Sistem Sertifikasi' });
