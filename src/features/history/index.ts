// What other features may use of history; everything else in this folder is internal.
import { lazy } from 'react';

/** A flag's History tab, in a chunk of its own. */
export const FlagHistoryTab = lazy(() => import('./FlagHistoryTab'));

/** A segment's changes, in a chunk of its own. */
export const SegmentHistory = lazy(() => import('./SegmentHistory'));
