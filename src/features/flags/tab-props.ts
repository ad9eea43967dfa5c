import type { Flag } from '../../../domain/flipt/types';

/** What every flag-detail tab receives (apart from tabs.ts, which lazily imports the tabs). */
export interface FlagTabProps {
  namespaceKey: string;
  flag: Flag;
}
