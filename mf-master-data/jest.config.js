module.exports = require('../jest.frontend')('mf-master-data');
