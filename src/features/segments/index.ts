// What other features may use of segments; everything else in this folder is internal.
export { segmentKeys } from './keys';
export { operatorLabel } from './operators';
export { useSegments } from './queries';
