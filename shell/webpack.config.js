const { createConfig } = require('../webpack.base');

module.exports = createConfig({
  dir: __dirname,
  name: 'shell',
  host: true,
  title: 'Sistem Sertifikasi',
  // /login's page: the sign-in form drawn before the scripts (src/index.html, pages/LoginPage.tsx).
  loginPage: 'login.html',
  // The login route's title and the suffix the guard gives every page (src/guard.tsx): the tab says
  // which page this is before the scripts start (WCAG 2.4.2).
  loginTitle: 'Login - Sistem Sertifikasi',
});
