import type { TSurvey, TSurveyStatus } from '../../../domain/surveys/types';
import type { SurveyDraft } from './api';

export const STATUS_LABELS: Record<TSurveyStatus, string> = {
  draft: 'Draft',
  inProgress: 'In progress',
  paused: 'Paused',
  completed: 'Completed',
};

/** The survey as a write sends it: without the keys the server owns (and the list's counts). */
export function draftOf(survey: TSurvey): SurveyDraft {
  const {
    id: _id,
    createdAt: _createdAt,
    updatedAt: _updatedAt,
    environmentId: _environmentId,
    displayCount: _displays,
    responseCount: _responses,
    ...draft
  } = survey as TSurvey & { displayCount?: number; responseCount?: number };
  return draft;
}
