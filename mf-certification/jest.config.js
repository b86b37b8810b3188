module.exports = require('../jest.frontend')('mf-certification');
