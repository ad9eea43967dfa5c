/** The webhooks of a survey environment, as the management API and the console's results API answer them. */

export const WEBHOOK_TRIGGERS = ['responseCreated', 'responseUpdated', 'responseFinished'] as const;
export type WebhookTrigger = (typeof WEBHOOK_TRIGGERS)[number];

export interface Webhook {
  id: string;
  createdAt: string;
  updatedAt: string;
  environmentId: string;
  name: string | null;
  url: string;
  source: 'user' | 'api';
  triggers: WebhookTrigger[];
  /** Empty: every survey of the environment. */
  surveyIds: string[];
  /** `whsec_` and the base64 key the signatures are made with (Standard Webhooks). */
  secret: string;
  /** When its deliveries stopped after failing again and again (resumed from the console); null while delivering. */
  pausedAt: string | null;
}
