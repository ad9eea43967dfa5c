import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { FlagType } from '../../../domain/flipt/types';
import { FlagHistoryTab } from '../history';
import { FlagFeedbackTab } from '../surveys';
import type { FlagTabProps } from './tab-props';

export interface FlagTab {
  label: string;
  /** The path segment after the flag key; '' is the index tab. */
  path: string;
  component: LazyExoticComponent<ComponentType<FlagTabProps>>;
}

const Variants = lazy(() => import('./VariantsTab'));
const Rules = lazy(() => import('./rules/RulesTab'));
const Rollouts = lazy(() => import('./rollouts/RolloutsTab'));
const Analytics = lazy(() => import('./analytics/AnalyticsTab'));

/** The flag-detail sub-tabs by flag type. */
export const FLAG_TABS: Record<FlagType, FlagTab[]> = {
  VARIANT_FLAG_TYPE: [
    { label: 'Variants', path: '', component: Variants },
    { label: 'Rules', path: 'rules', component: Rules },
    { label: 'Analytics', path: 'analytics', component: Analytics },
    { label: 'Feedback', path: 'feedback', component: FlagFeedbackTab },
    { label: 'History', path: 'history', component: FlagHistoryTab },
  ],
  BOOLEAN_FLAG_TYPE: [
    { label: 'Rollouts', path: '', component: Rollouts },
    { label: 'Analytics', path: 'analytics', component: Analytics },
    { label: 'Feedback', path: 'feedback', component: FlagFeedbackTab },
    { label: 'History', path: 'history', component: FlagHistoryTab },
  ],
};
