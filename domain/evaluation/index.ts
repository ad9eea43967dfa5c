export * from './snapshot.js';
export * from './compile.js';
export * from './engine.js';
export { crc32 } from './crc32.js';
export { parseGoBool, parseGoDateTime, parseGoFloat, goTrimSpace } from './goparse.js';
