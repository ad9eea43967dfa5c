// What other features may use of flags; everything else in this folder is internal (the shell's route
// table imports ./routes, the route patterns, alone).
export { flagKeys, useFlags } from './api';
export { flagHrefs } from './hrefs';
