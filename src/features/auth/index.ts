// What the shell may use of auth; everything else in this folder is internal.
export { logout, useSessionCheck } from './api';
