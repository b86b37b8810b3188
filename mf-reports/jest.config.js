module.exports = require('../jest.frontend')('mf-reports');
