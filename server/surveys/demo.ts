import type { SeedInput } from './seed.js';

/** The built-in demo environment's fixed ids and management API key (documented in the README). */
export const DEMO_ENVIRONMENT_ID = 'clensigndemoenvironment0';
export const DEMO_PRODUCT_ID = 'clensigndemoproduct00000';
export const DEMO_API_KEY = 'ensign-demo-api-key-0000';

/** Served by the demo page's folder; a root-relative address, so it works on any host page that serves /demo/ too. */
const picture = (name: string) => `/demo/pictures/${name}.svg`;

const common = { status: 'inProgress', type: 'web', displayOption: 'respondMultiple', recontactDays: 0 } as const;

/**
 * The demo environment: one survey per trigger kind (New Session, a named code action, page URL, click,
 * exit intent, 50% scroll), and between them every question type of 1.6 with logic jumps. Every survey may
 * be answered again at once, so the demo page can be replayed.
 */
export const DEMO_SEED: SeedInput = {
  environments: [
    {
      id: DEMO_ENVIRONMENT_ID,
      type: 'development',
      product: {
        id: DEMO_PRODUCT_ID,
        name: 'Ensign demo',
        brandColor: '#0f766e',
        recontactDays: 0,
        placement: 'bottomRight',
      },
      apiKeys: [DEMO_API_KEY],
      actionClasses: [
        {
          name: 'Code Action',
          type: 'code',
          description: 'Fired by the demo page with formbricks.track("Code Action")',
        },
        { name: 'Visited pricing', type: 'noCode', noCodeConfig: { pageUrl: { value: '#pricing', rule: 'contains' } } },
        {
          name: 'Clicked feedback button',
          type: 'noCode',
          noCodeConfig: { cssSelector: { value: '.feedback-button' } },
        },
      ],
      surveys: [
        {
          id: 'clensigndemosurveywelcom',
          name: 'Welcome (New Session)',
          ...common,
          triggers: ['New Session'],
          welcomeCard: {
            enabled: true,
            headline: 'Welcome to the Ensign demo',
            html: '<p>Two quick questions.</p>',
            buttonLabel: 'Start',
            timeToFinish: true,
          },
          questions: [
            {
              id: 'mood',
              type: 'rating',
              headline: 'How is your day going?',
              required: true,
              scale: 'smiley',
              range: 5,
              lowerLabel: 'Bad',
              upperLabel: 'Great',
            },
            {
              id: 'wish',
              type: 'openText',
              headline: 'What would make it better?',
              required: false,
              placeholder: 'Type here',
              longAnswer: false,
              inputType: 'text',
            },
          ],
          thankYouCard: { enabled: true, headline: 'Thank you!', subheader: 'Try the other triggers from the panel.' },
        },
        {
          id: 'clensigndemosurveyallqts',
          name: 'Every question type (Code Action)',
          ...common,
          triggers: ['Code Action'],
          questions: [
            {
              id: 'role',
              type: 'multipleChoiceSingle',
              headline: 'What is your role?',
              required: true,
              shuffleOption: 'none',
              choices: [
                { id: 'dev', label: 'Developer' },
                { id: 'pm', label: 'Product manager' },
                { id: 'skip', label: 'Skip to the end' },
                { id: 'other', label: 'Other' },
              ],
              logic: [{ condition: 'equals', value: 'Skip to the end', destination: 'end' }],
            },
            {
              id: 'features',
              type: 'multipleChoiceMulti',
              headline: 'Which features do you use?',
              required: true,
              shuffleOption: 'exceptLast',
              choices: [
                { id: 'flags', label: 'Feature flags' },
                { id: 'surveys', label: 'Surveys' },
                { id: 'segments', label: 'Segments' },
                { id: 'other', label: 'Other' },
              ],
            },
            {
              id: 'name',
              type: 'openText',
              headline: 'What is your name?',
              required: true,
              placeholder: 'Ada',
              longAnswer: false,
              inputType: 'text',
            },
            {
              id: 'email',
              type: 'openText',
              headline: 'Your email, #recall:name/fallback:friend#?',
              required: false,
              placeholder: 'ada@example.com',
              longAnswer: false,
              inputType: 'email',
            },
            {
              id: 'recommend',
              type: 'nps',
              headline: 'How likely are you to recommend Ensign?',
              required: true,
              lowerLabel: 'Not likely',
              upperLabel: 'Very likely',
              logic: [{ condition: 'lessThan', value: 7, destination: 'improve' }],
            },
            {
              id: 'stars',
              type: 'rating',
              headline: 'Rate the docs',
              required: true,
              scale: 'star',
              range: 5,
              lowerLabel: 'Poor',
              upperLabel: 'Excellent',
            },
            {
              id: 'points',
              type: 'rating',
              headline: 'Rate the speed',
              required: false,
              scale: 'number',
              range: 10,
              lowerLabel: 'Slow',
              upperLabel: 'Fast',
            },
            {
              id: 'improve',
              type: 'openText',
              headline: 'What should we improve?',
              required: false,
              longAnswer: true,
              inputType: 'text',
            },
            {
              id: 'docs',
              type: 'cta',
              headline: 'Read the changelog?',
              html: '<p>We ship <strong>every week</strong>.</p>',
              required: false,
              buttonLabel: 'Open',
              buttonExternal: false,
              dismissButtonLabel: 'Not now',
            },
            {
              id: 'terms',
              type: 'consent',
              headline: 'Terms',
              html: '<p>We store your answers.</p>',
              label: 'I agree',
              required: true,
            },
            {
              id: 'colour',
              type: 'pictureSelection',
              headline: 'Pick the colours you like',
              required: true,
              allowMulti: true,
              choices: [
                { id: 'teal', imageUrl: picture('teal') },
                { id: 'plum', imageUrl: picture('plum') },
                { id: 'amber', imageUrl: picture('amber') },
              ],
            },
            { id: 'when', type: 'date', headline: 'When did you start?', required: false, format: 'y-M-d' },
            {
              id: 'screenshot',
              type: 'fileUpload',
              headline: 'Attach a screenshot',
              required: false,
              allowMultipleFiles: false,
              maxSizeInMB: 10,
              allowedFileExtensions: ['png', 'jpg', 'jpeg', 'pdf', 'plain'],
            },
            {
              id: 'meeting',
              type: 'cal',
              headline: 'Book a call with us',
              required: false,
              calUserName: 'rick/get-rick-rolled',
            },
          ],
          thankYouCard: {
            enabled: true,
            headline: 'All question types answered',
            subheader: 'See the responses link in the panel.',
          },
        },
        {
          id: 'clensigndemosurveypricin',
          name: 'Pricing page (page URL)',
          ...common,
          triggers: ['Visited pricing'],
          questions: [
            {
              id: 'price',
              type: 'multipleChoiceSingle',
              headline: 'Is the pricing clear?',
              required: true,
              choices: [
                { id: 'yes', label: 'Yes' },
                { id: 'no', label: 'No' },
              ],
            },
          ],
        },
        {
          id: 'clensigndemosurveyclicks',
          name: 'Feedback button (click)',
          ...common,
          triggers: ['Clicked feedback button'],
          questions: [
            {
              id: 'feedback',
              type: 'openText',
              headline: 'What feedback do you have?',
              required: true,
              longAnswer: true,
              inputType: 'text',
            },
          ],
        },
        {
          id: 'clensigndemosurveyexitin',
          name: 'Leaving already? (exit intent)',
          ...common,
          triggers: ['Exit Intent (Desktop)'],
          questions: [
            {
              id: 'leaving',
              type: 'openText',
              headline: 'What made you leave?',
              required: true,
              longAnswer: false,
              inputType: 'text',
            },
          ],
        },
        {
          id: 'clensigndemosurveyscroll',
          name: 'Reading along (50% scroll)',
          ...common,
          triggers: ['50% Scroll'],
          questions: [
            {
              id: 'useful',
              type: 'rating',
              headline: 'Is this page useful?',
              required: true,
              scale: 'number',
              range: 3,
              lowerLabel: 'No',
              upperLabel: 'Yes',
            },
          ],
        },
      ],
    },
  ],
};
