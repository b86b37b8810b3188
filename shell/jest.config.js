module.exports = require('../jest.frontend')('shell');
