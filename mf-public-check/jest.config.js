module.exports = require('../jest.frontend')('mf-public-check');
