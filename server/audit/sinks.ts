import { createHmac } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import type { AuditConfig } from '../config/audit.js';
import type { AuditEvent } from './events.js';
import { compileTemplate } from './template.js';

/** Where audit events go. `send` resolves once every event is delivered, or throws (they are sent again later). */
export interface AuditSink {
  /** The sink's name in `audit_cursors`. */
  readonly name: string;
  send(events: AuditEvent[]): Promise<void>;
}

/** One line per event: the event's JSON (`json`), or its time, type, action and actor before it (`console`). */
export class LogSink implements AuditSink {
  readonly name = 'log';
  constructor(private readonly config: AuditConfig['audit']['log']) {}

  async send(events: AuditEvent[]): Promise<void> {
    const lines = events.map((event) => `${this.line(event)}\n`).join('');
    if (this.config.file) await appendFile(this.config.file, lines);
    else process.stdout.write(lines);
  }

  private line(event: AuditEvent): string {
    const json = JSON.stringify(event);
    if (this.config.encoding === 'json') return json;
    const actor = event.metadata.actor;
    return `${event.timestamp}\tINFO\taudit\t${event.type} ${event.action} by ${actor.email ?? actor.name ?? actor.authentication}\t${json}`;
  }
}

export const SIGNATURE_HEADER = 'X-Flipt-Webhook-Signature';

/**
 * One POST per event, in order. With `url`: the event's JSON, signed with `signing_secret` when set
 * (hex HMAC-SHA256 of the body in X-Flipt-Webhook-Signature); with `templates`: each template's
 * body to its url, unsigned, as Flipt does. A refused or failed POST is tried again with exponential
 * backoff for up to `max_backoff_duration`; then `send` throws and the dispatcher tries later.
 */
export class WebhookSink implements AuditSink {
  readonly name = 'webhook';
  private readonly templates;

  constructor(
    private readonly config: AuditConfig['audit']['webhook'],
    private readonly sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.templates = config.templates.map((template, index) => ({
      ...template,
      render: compileTemplate(template.body, `audit.sinks.webhook.templates[${index}].body`),
    }));
  }

  async send(events: AuditEvent[]): Promise<void> {
    for (const event of events) {
      if (this.templates.length === 0) {
        const body = JSON.stringify(event);
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (this.config.signingSecret)
          headers[SIGNATURE_HEADER] = createHmac('sha256', this.config.signingSecret).update(body).digest('hex');
        await this.post(this.config.url, body, headers);
        continue;
      }
      for (const template of this.templates) {
        const body = template.render(event as unknown as Record<string, unknown>);
        await this.post(template.url, body, { 'content-type': 'application/json', ...template.headers });
      }
    }
  }

  private async post(url: string, body: string, headers: Record<string, string>): Promise<void> {
    const started = Date.now();
    for (let pause = 500; ; pause *= 2) {
      let problem: string;
      try {
        const response = await fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(10_000) });
        await response.arrayBuffer().catch(() => undefined);
        if (response.ok) return;
        problem = `answered ${response.status}`;
      } catch (error) {
        problem = (error as Error).message;
      }
      if (Date.now() - started + pause > this.config.maxBackoffMs) throw new Error(`audit webhook ${url}: ${problem}`);
      await this.sleep(pause);
    }
  }
}
