export * from './inspection/index.js';
