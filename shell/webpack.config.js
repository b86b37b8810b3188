const { createConfig } = require('../webpack.base');

module.exports = createConfig({
  dir: __dirname,
  name: 'shell',
  host: true,
  title: 'Sistem Sertifikasi',
  // /login's page: the sign-in form drawn before the scripts (src/index.html, pages/LoginPage.tsx).
  loginPage: 'login.html',
});
