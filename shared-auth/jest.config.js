/** shared-auth tests: the shared browser-package jest setup (jsdom + Node's fetch; network faked per test). */
module.exports = require('../jest.frontend.js')('shared-auth');
