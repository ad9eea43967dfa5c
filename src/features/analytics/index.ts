// What other features may use of analytics; everything else in this folder is internal.
export { analyticsKeys } from './keys';
