import type { TSurvey, TSurveyQuestion } from '../../../../domain/surveys/types.js';

/** A complete survey document as the server syncs it (shared by the unit and e2e tests). */
export function makeSurvey(questions: TSurveyQuestion[], overrides: Partial<TSurvey> = {}): TSurvey {
  return {
    id: 'clsurvey000000000000000001',
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    name: 'Test survey',
    type: 'web',
    environmentId: 'clenv00000000000000000001',
    createdBy: null,
    status: 'inProgress',
    displayOption: 'respondMultiple',
    autoClose: null,
    triggers: ['New Session'],
    inlineTriggers: null,
    redirectUrl: null,
    recontactDays: null,
    welcomeCard: { enabled: false },
    questions,
    thankYouCard: { enabled: true, headline: 'Thank you!', subheader: 'We appreciate your feedback.' },
    hiddenFields: { enabled: false },
    delay: 0,
    autoComplete: null,
    closeOnDate: null,
    productOverwrites: null,
    styling: null,
    surveyClosedMessage: null,
    segment: null,
    singleUse: null,
    verifyEmail: null,
    pin: null,
    resultShareKey: null,
    displayPercentage: null,
    ...overrides,
  };
}
