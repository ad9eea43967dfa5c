// What other features may use of segments; everything else in this folder is internal.
export { operatorLabel } from './operators';
export { segmentKeys, useSegments } from './api';
