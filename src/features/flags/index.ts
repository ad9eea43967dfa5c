// What other features may use of flags; everything else in this folder is internal.
export { flagKeys } from './keys';
export { flagPath, flagValues, useFlagMutations, useFlags } from './queries';
export type { FlagTabProps } from './tabs';
