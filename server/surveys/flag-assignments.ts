import { flagAssignment, type TargetingNamespace } from '../../domain/surveys/eligibility.js';
import type { TSurvey } from '../../domain/surveys/types.js';
import type { SurveyStore } from './store/index.js';

/** An environment's flags and segments, as the evaluation engine reads them. */
export type Targeting = (environmentId: string) => Promise<TargetingNamespace>;

/** The variant of its linked flag that a display or a response of a survey records for a person. */
export type FlagAssignments = ReturnType<typeof flagAssignments>;

export function flagAssignments(store: SurveyStore, targeting: Targeting) {
  /** What the linked flag gives the person now, from their stored attributes. */
  const now = async (environmentId: string, flagKey: string, userId: string, personId: string) => {
    const [namespace, attributes] = await Promise.all([targeting(environmentId), store.attributes(personId)]);
    return flagAssignment(namespace, flagKey, { userId, attributes }) ?? null;
  };
  /** A response keeps the assignment of the person's latest display of the survey (else what the flag gives now). */
  const shown = async (survey: TSurvey, userId: string, personId: string) => {
    const display = (await store.displaysOfPerson(personId)).find(
      (item) => item.surveyId === survey.id && item.flag !== null,
    );
    return display?.flag ?? (await now(survey.environmentId, survey.linkedFlag!.flagKey, userId, personId));
  };
  return { now, shown };
}
