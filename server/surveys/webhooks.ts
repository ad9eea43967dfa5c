/**
 * Webhook delivery: response events queue one row per listening webhook in the database (survey_webhook_
 * deliveries), and this sends them, signed, retrying with a growing delay. The queue is the table, so
 * nothing queued is lost when the server stops; a delivery claimed by a process that died is due again
 * once its lease ends.
 */
import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import * as v from 'valibot';
import type { Database } from '../db/index.js';
import {
  claimDueDeliveries,
  deliveryDone,
  deliveryFailed,
  type DueDelivery,
  enqueueWebhookEvents,
  WEBHOOK_TRIGGERS,
  type WebhookInput,
  type WebhookTrigger,
} from './store/webhooks.js';
import { response } from './store/responses.js';

/** How often the queue is looked at when nothing nudged it. */
const POLL_MS = 1000;
/** How long a claimed delivery is someone's: longer than a request may take. */
const LEASE_MS = 60_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** Attempts before a delivery is given up on: the last comes about 17 hours after the first. */
const MAX_ATTEMPTS = 12;

/** The delay before attempt n + 1: 10 s, 20 s, 40 s... at most an hour (a sixth of it added at random). */
export function retryDelayMs(attempts: number): number {
  const base = Math.min(10_000 * 2 ** (attempts - 1), 3_600_000);
  return base + Math.floor(Math.random() * (base / 6));
}

/**
 * Standard Webhooks signature headers: `webhook-signature` is `v1,` and the base64 HMAC-SHA256, keyed with
 * the secret's base64 part, of `id.timestamp.body`.
 */
export function signatureHeaders(secret: string, id: string, body: string, at = new Date()): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}

export const webhookInputSchema = v.object({
  name: v.optional(
    v.nullable(v.pipe(v.string('must be a string'), v.maxLength(255, 'must be at most 255 characters'))),
  ),
  url: v.pipe(
    v.string('must be a string'),
    v.url('must be a URL'),
    v.check((url) => /^https?:\/\//i.test(url), 'must be an http or https URL'),
  ),
  source: v.optional(v.picklist(['user', 'api'], 'must be user or api')),
  triggers: v.pipe(
    v.array(v.picklist(WEBHOOK_TRIGGERS, `must be ${WEBHOOK_TRIGGERS.join(', ')}`), 'must be a list of triggers'),
    v.minLength(1, 'must name at least one trigger'),
  ),
  surveyIds: v.optional(v.array(v.string('must be a string'), 'must be a list of survey ids')),
}) satisfies v.GenericSchema<unknown, WebhookInput>;

export class WebhookDispatcher {
  /**
   * Queues a response's events for the webhooks listening to them (with the response as the management
   * API gives it), then looks at the queue.
   */
  async responseEvents(
    environmentId: string,
    surveyId: string,
    responseId: string,
    events: readonly WebhookTrigger[],
  ): Promise<void> {
    const queued = await enqueueWebhookEvents(this.database, environmentId, surveyId, events, () =>
      response(this.database, responseId),
    );
    if (queued > 0) this.nudge();
  }

  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.stopped = false;
    this.nudge();
  }

  /** Looks at the queue now (something was just queued), or as soon as the current round ends. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.round()
      .catch((error) => this.log.error(error, 'webhook delivery round failed'))
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.nudge();
        } else {
          this.timer = setTimeout(() => this.nudge(), POLL_MS);
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private async round(): Promise<void> {
    for (;;) {
      const due = await claimDueDeliveries(this.database, 20, LEASE_MS);
      await Promise.all(due.map((delivery) => this.deliver(delivery)));
      if (due.length < 20 || this.stopped) return;
    }
  }

  private async deliver(delivery: DueDelivery): Promise<void> {
    const attempts = delivery.attempts + 1;
    let failure: string;
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Ensign-Webhooks',
          ...signatureHeaders(delivery.secret, delivery.id, delivery.payload),
        },
        body: delivery.payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      await response.body?.cancel();
      if (response.ok) {
        await deliveryDone(this.database, delivery.id);
        return;
      }
      failure = `HTTP ${response.status}`;
    } catch (error) {
      failure = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    const retryAt = attempts < MAX_ATTEMPTS ? new Date(Date.now() + retryDelayMs(attempts)).toISOString() : undefined;
    this.log.warn({ delivery: delivery.id, url: delivery.url, attempts, failure }, 'webhook delivery failed');
    await deliveryFailed(this.database, delivery.id, attempts, failure, retryAt);
  }
}
