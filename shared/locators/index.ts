export * from './config.js';
export * from './generate.js';
export * from './quote.js';
export * from './tree.js';
export * from './verify.js';
