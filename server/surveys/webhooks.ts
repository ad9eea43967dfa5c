/**
 * Webhook delivery: response events queue one row per listening webhook in the database (survey_webhook_
 * deliveries, the response itself stored once in survey_webhook_payloads), and this sends them, signed,
 * retrying with a growing delay. The queue is the table, so nothing queued is lost when the server stops;
 * a delivery claimed by a process that died is due again once its lease ends. Deliveries go out from a
 * pool that takes the next due one as soon as one ends, at most two at a time to a webhook and four to an
 * environment's webhooks, so receivers that never answer hold a few places and delay no other tenant; a
 * webhook whose attempts keep failing is paused until resumed from the console.
 */
import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import * as v from 'valibot';
import type { Database } from '../db/index.js';
import { badRequest } from './errors.js';
import {
  claimDueDeliveries,
  countWebhooks,
  deliveryDone,
  deliveryFailed,
  type DeliveryLimits,
  type DueDelivery,
  enqueueWebhookEvents,
  saveWebhook,
  WEBHOOK_TRIGGERS,
  type WebhookInput,
  type WebhookRecord,
  type WebhookTrigger,
} from './store/webhooks.js';
import { response } from './store/responses.js';
import { type DeliveryFailure, postToTarget, WebhookTargetError, webhookTarget } from './webhook-targets.js';

/** How many webhooks an environment may hold (docs/operations.md). */
export const MAX_WEBHOOKS_PER_ENVIRONMENT = 50;
/** How many deliveries a webhook may have waiting: the events beyond are left out (and logged). */
export const MAX_PENDING_PER_WEBHOOK = 1000;
/** Deliveries in flight at once in a process, to one webhook and to one environment's webhooks. */
const POOL_SIZE = 16;
const LIMITS: DeliveryLimits = { perWebhook: 2, perEnvironment: 4 };
/** How often the queue is looked at when nothing nudged it. */
const POLL_MS = 1000;
/** How long a claimed delivery is someone's: longer than a request may take. */
const LEASE_MS = 60_000;
const REQUEST_TIMEOUT_MS = 5000;
/** Attempts before a delivery is given up on: the last comes about 17 hours after the first. */
const MAX_ATTEMPTS = 12;
/** Failed attempts in a row (of any of its deliveries) after which a webhook is paused. */
export const PAUSE_AFTER_FAILURES = 10;

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

/**
 * Creates a webhook, or changes one (`id`), once its URL is one that may be posted to (400 naming the
 * problem otherwise) and, for a new one, while the environment holds fewer than the cap.
 */
export async function saveCheckedWebhook(
  database: Database,
  environmentId: string,
  input: WebhookInput,
  allowInternalAddresses: boolean,
  id?: string,
): Promise<WebhookRecord> {
  try {
    await webhookTarget(input.url, allowInternalAddresses);
  } catch (error) {
    if (!(error instanceof WebhookTargetError)) throw error;
    throw badRequest('Fields are missing or incorrectly formatted', { url: error.message });
  }
  if (!id && (await countWebhooks(database, environmentId)) >= MAX_WEBHOOKS_PER_ENVIRONMENT) {
    throw badRequest(`An environment holds at most ${MAX_WEBHOOKS_PER_ENVIRONMENT} webhooks`);
  }
  return saveWebhook(database, environmentId, input, id);
}

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
    const { queued, leftOut } = await enqueueWebhookEvents(
      this.database,
      environmentId,
      surveyId,
      events,
      () => response(this.database, responseId),
      MAX_PENDING_PER_WEBHOOK,
    );
    if (leftOut > 0) {
      this.log.warn(
        { environmentId, responseId, leftOut },
        `webhook deliveries left out: their webhooks already have ${MAX_PENDING_PER_WEBHOOK} waiting`,
      );
    }
    if (queued > 0) this.nudge();
  }

  private timer: NodeJS.Timeout | undefined;
  private filling: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  /** Deliveries in flight, and how many of them each webhook and each environment has. */
  private readonly inFlight = new Set<Promise<void>>();
  private readonly counts = { webhooks: new Map<string, number>(), environments: new Map<string, number>() };

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
    private readonly allowInternalAddresses: boolean,
  ) {}

  start(): void {
    this.stopped = false;
    this.nudge();
  }

  /** Fills the pool now (something was just queued or delivered), or as soon as the current filling ends. */
  nudge(): void {
    if (this.stopped) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.filling = this.fill()
      .catch((error) => this.log.error(error, 'claiming webhook deliveries failed'))
      .finally(() => {
        this.filling = undefined;
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
    await this.filling;
    await Promise.all(this.inFlight);
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.inFlight.size < POOL_SIZE) {
      const free = POOL_SIZE - this.inFlight.size;
      const due = await claimDueDeliveries(this.database, free, LEASE_MS, LIMITS, this.counts);
      for (const delivery of due) this.send(delivery);
      // Fewer than asked for: nothing else is due that a free place may take.
      if (due.length < free) return;
    }
  }

  private send(delivery: DueDelivery): void {
    const count = (counts: Map<string, number>, id: string, change: number) => {
      const value = (counts.get(id) ?? 0) + change;
      if (value > 0) counts.set(id, value);
      else counts.delete(id);
    };
    count(this.counts.webhooks, delivery.webhookId, 1);
    count(this.counts.environments, delivery.environmentId, 1);
    const sending: Promise<void> = this.deliver(delivery)
      .catch((error) => this.log.error(error, 'webhook delivery failed'))
      .finally(() => {
        count(this.counts.webhooks, delivery.webhookId, -1);
        count(this.counts.environments, delivery.environmentId, -1);
        this.inFlight.delete(sending);
        this.nudge();
      });
    this.inFlight.add(sending);
  }

  private async deliver(delivery: DueDelivery): Promise<void> {
    let failure: DeliveryFailure | undefined;
    try {
      const target = await webhookTarget(delivery.url, this.allowInternalAddresses);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Ensign-Webhooks',
        ...signatureHeaders(delivery.secret, delivery.id, delivery.payload),
      };
      failure = await postToTarget(target, headers, delivery.payload, REQUEST_TIMEOUT_MS);
    } catch (error) {
      if (!(error instanceof WebhookTargetError)) throw error;
      failure = error.failure;
    }
    if (!failure) return deliveryDone(this.database, delivery);
    const attempts = delivery.attempts + 1;
    const retryAt = attempts < MAX_ATTEMPTS ? new Date(Date.now() + retryDelayMs(attempts)).toISOString() : undefined;
    this.log.warn({ delivery: delivery.id, webhook: delivery.webhookId, attempts, failure }, 'webhook delivery failed');
    await deliveryFailed(this.database, delivery, failure, retryAt, PAUSE_AFTER_FAILURES);
  }
}
