export * from './flipt/types.js';
