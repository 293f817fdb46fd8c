export * from './config.js';
export * from './engine.js';
export * from './model.js';
export * from './report/finding-json.js';
export * from './report/formats.js';
export { RULES, ruleById } from './rules/index.js';
