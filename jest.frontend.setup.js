require('@testing-library/jest-dom');
const { File: NodeFile } = require('node:buffer');

// jest-fixed-jsdom swaps in Node's Blob, FormData and fetch but leaves jsdom's File, which Node's Blob
// and FormData do not recognise (in a browser a File is a Blob). Use Node's File too.
globalThis.File = NodeFile;
