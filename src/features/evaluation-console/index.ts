// What other features may use of the evaluation console; everything else in this folder is internal.
export { curlCommand } from './evaluation';
