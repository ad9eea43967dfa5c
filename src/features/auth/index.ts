// What the shell and other features may use of auth; everything else in this folder is internal.
export { logout, useSessionCheck } from './session';
export { methodEnabled } from './methods';
export { useAuthMethods } from './queries';
