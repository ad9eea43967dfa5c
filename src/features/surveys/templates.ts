import type { TSurveyQuestion } from '../../../domain/surveys/types';
import type { SurveyDraft } from './api';

/** A short random id for a question or a choice (letters and digits, as the schema allows). */
export const newId = () => Math.random().toString(36).slice(2, 10);

/** A draft survey with every key the wire needs, as the editor starts it. */
export function draftSurvey(name: string, questions: TSurveyQuestion[]): SurveyDraft {
  return {
    name,
    type: 'web',
    createdBy: null,
    status: 'draft',
    displayOption: 'displayOnce',
    autoClose: null,
    triggers: [],
    inlineTriggers: null,
    redirectUrl: null,
    recontactDays: null,
    welcomeCard: { enabled: false, timeToFinish: true, showResponseCount: false },
    questions,
    thankYouCard: { enabled: true, headline: 'Thank you!', subheader: 'We appreciate your feedback.' },
    hiddenFields: { enabled: true, fieldIds: [] },
    delay: 0,
    autoComplete: null,
    closeOnDate: null,
    productOverwrites: null,
    styling: null,
    surveyClosedMessage: null,
    segment: null,
    singleUse: { enabled: false, isEncrypted: true },
    verifyEmail: null,
    pin: null,
    resultShareKey: null,
    displayPercentage: null,
    linkedFlag: null,
    segmentKey: null,
  };
}

const choices = (...labels: string[]) => labels.map((label) => ({ id: newId(), label }));

export interface SurveyTemplate {
  name: string;
  description: string;
  build(): SurveyDraft;
}

/** The blank survey and the templates the list offers (after Formbricks 1.6's own). */
export const TEMPLATES: SurveyTemplate[] = [
  {
    name: 'Blank survey',
    description: 'One open question to start from.',
    build: () =>
      draftSurvey('New survey', [
        { id: newId(), type: 'openText', headline: 'What would you like to know?', required: true, inputType: 'text' },
      ]),
  },
  {
    name: 'Net Promoter Score (NPS)',
    description: 'How likely visitors are to recommend you, and why.',
    build: () => {
      const score = newId();
      return draftSurvey('NPS', [
        {
          id: score,
          type: 'nps',
          headline: 'How likely are you to recommend us to a friend or colleague?',
          required: true,
          lowerLabel: 'Not at all likely',
          upperLabel: 'Extremely likely',
        },
        {
          id: newId(),
          type: 'openText',
          headline: 'What is the main reason for your score?',
          required: false,
          inputType: 'text',
        },
      ]);
    },
  },
  {
    name: 'Customer satisfaction (CSAT)',
    description: 'A satisfaction rating with a follow-up.',
    build: () =>
      draftSurvey('CSAT', [
        {
          id: newId(),
          type: 'rating',
          headline: 'How satisfied are you with our product?',
          required: true,
          scale: 'smiley',
          range: 5,
          lowerLabel: 'Very dissatisfied',
          upperLabel: 'Very satisfied',
        },
        {
          id: newId(),
          type: 'openText',
          headline: 'How could we improve?',
          required: false,
          inputType: 'text',
        },
      ]),
  },
  {
    name: 'Product-market fit',
    description: 'How disappointed users would be without your product (Superhuman’s question).',
    build: () =>
      draftSurvey('Product-market fit', [
        {
          id: newId(),
          type: 'multipleChoiceSingle',
          headline: 'How would you feel if you could no longer use our product?',
          required: true,
          shuffleOption: 'none',
          choices: choices('Very disappointed', 'Somewhat disappointed', 'Not disappointed'),
        },
        {
          id: newId(),
          type: 'openText',
          headline: 'What is the main benefit you receive from our product?',
          required: false,
          inputType: 'text',
        },
      ]),
  },
  {
    name: 'Feature feedback',
    description: 'Whether a feature helps, right where it is used.',
    build: () =>
      draftSurvey('Feature feedback', [
        {
          id: newId(),
          type: 'rating',
          headline: 'How useful is this feature?',
          required: true,
          scale: 'star',
          range: 5,
          lowerLabel: 'Not useful',
          upperLabel: 'Very useful',
        },
        { id: newId(), type: 'openText', headline: 'What would make it better?', required: false, inputType: 'text' },
      ]),
  },
  {
    name: 'Churn reason',
    description: 'Why customers leave, asked as they cancel.',
    build: () =>
      draftSurvey('Churn reason', [
        {
          id: newId(),
          type: 'multipleChoiceSingle',
          headline: 'Why are you cancelling?',
          required: true,
          shuffleOption: 'exceptLast',
          choices: [
            ...choices('Too expensive', 'Missing features', 'Too difficult to use', 'Found an alternative'),
            { id: 'other', label: 'Other' },
          ],
        },
        { id: newId(), type: 'openText', headline: 'Anything we could have done better?', required: false },
      ]),
  },
];
