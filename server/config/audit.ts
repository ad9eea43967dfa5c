import * as v from 'valibot';
import { AUDIT_NOUNS, AUDIT_VERBS } from '../../domain/flipt/history.js';
import { duration, parseDurationMs } from './duration.js';
import { ConfigError } from './errors.js';
import { compileTemplate } from '../audit/template.js';
import { bool, defineSection, num, opt, str, strList } from './section.js';

export interface WebhookTemplate {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface AuditConfig {
  audit: {
    log: { enabled: boolean; file: string; encoding: 'json' | 'console' };
    webhook: {
      enabled: boolean;
      url: string;
      signingSecret: string;
      maxBackoffMs: number;
      templates: WebhookTemplate[];
    };
    /** At most this many events per delivery round, and a look at the history at least this often. */
    buffer: { capacity: number; flushPeriodMs: number };
    /** `noun:verb` pairs, `*` for any. */
    events: { noun: string; verb: string }[];
    /** How long history entries are kept (Ensign's key). */
    historyRetentionMs: number;
  };
}

const DAY_MS = 86_400_000;

/**
 * Flipt v1.47's `audit` section (log and webhook sinks, buffer, event filters, its validation limits)
 * and Ensign's `audit.history.retention`. The sinks read the change history, so a sink that could not
 * deliver resumes where it stopped.
 */
export const auditSection = defineSection({
  key: 'audit',
  schema: v.strictObject({
    sinks: opt(
      v.strictObject({
        log: opt(
          v.strictObject({
            enabled: opt(bool),
            file: opt(str),
            encoding: opt(v.picklist(['', 'json', 'console'], 'must be "json" or "console"')),
          }),
        ),
        webhook: opt(
          v.strictObject({
            enabled: opt(bool),
            url: opt(str),
            max_backoff_duration: opt(duration),
            signing_secret: opt(str),
            templates: opt(
              v.array(v.strictObject({ url: str, body: opt(str), headers: opt(v.record(v.string(), v.string())) })),
            ),
          }),
        ),
        kafka: opt(v.unknown()),
        cloud: opt(v.unknown()),
      }),
    ),
    buffer: opt(v.strictObject({ capacity: opt(num), flush_period: opt(duration) })),
    events: opt(strList),
    history: opt(v.strictObject({ retention: opt(duration) })),
  }),
  refused: {
    'audit.sinks.kafka': 'the Kafka audit sink is not implemented; use the webhook sink',
    'audit.sinks.cloud': 'Flipt Cloud is not supported',
  },
  defaults: {
    sinks: {
      log: { enabled: false, file: '', encoding: '' },
      webhook: { enabled: false, url: '', max_backoff_duration: '15s', signing_secret: '' },
    },
    buffer: { capacity: 2, flush_period: '2m' },
    events: ['*:*'],
    history: { retention: `${90 * 24}h` },
  },
  resolve: (settings): AuditConfig => {
    const { log, webhook } = settings.sinks;
    const templates = (webhook.templates ?? []).map((template, index) => {
      const body = template.body ?? '';
      try {
        compileTemplate(body, `audit.sinks.webhook.templates[${index}].body`);
      } catch (error) {
        throw new ConfigError((error as Error).message);
      }
      return { url: template.url, body, headers: template.headers ?? {} };
    });
    if (webhook.enabled && !webhook.url && templates.length === 0)
      throw new ConfigError('audit.sinks.webhook needs url or templates when enabled');
    const { capacity } = settings.buffer;
    if (!Number.isInteger(capacity) || capacity < 2 || capacity > 10)
      throw new ConfigError(`audit.buffer.capacity must be from 2 to 10 (got ${capacity})`);
    const flushPeriodMs = parseDurationMs(settings.buffer.flush_period, 'audit.buffer.flush_period');
    if (flushPeriodMs < 120_000 || flushPeriodMs > 300_000)
      throw new ConfigError(`audit.buffer.flush_period must be from 2m to 5m (got "${settings.buffer.flush_period}")`);
    const historyRetentionMs = parseDurationMs(settings.history.retention, 'audit.history.retention');
    if (historyRetentionMs < DAY_MS)
      throw new ConfigError(`audit.history.retention must be at least 24h (got "${settings.history.retention}")`);
    return {
      audit: {
        log: { enabled: log.enabled, file: log.file, encoding: log.encoding === 'console' ? 'console' : 'json' },
        webhook: {
          enabled: webhook.enabled,
          url: webhook.url,
          signingSecret: webhook.signing_secret,
          maxBackoffMs: parseDurationMs(webhook.max_backoff_duration, 'audit.sinks.webhook.max_backoff_duration'),
          templates,
        },
        buffer: { capacity, flushPeriodMs },
        events: eventFilters(settings.events),
        historyRetentionMs,
      },
    };
  },
});

/** Flipt's `noun:verb` filters: each part a known name or `*`; a pair given twice is an error. */
function eventFilters(events: string[]): { noun: string; verb: string }[] {
  const seen = new Set<string>();
  return events.map((event) => {
    const [noun, verb, ...rest] = event.split(':');
    if (
      rest.length ||
      verb === undefined ||
      (noun !== '*' && !(AUDIT_NOUNS as readonly string[]).includes(noun)) ||
      (verb !== '*' && !(AUDIT_VERBS as readonly string[]).includes(verb))
    )
      throw new ConfigError(
        `audit.events: "${event}" must be noun:verb, noun one of ${AUDIT_NOUNS.join(', ')} or *, verb one of ${AUDIT_VERBS.join(', ')} or *`,
      );
    if (seen.has(event)) throw new ConfigError(`audit.events: "${event}" is given twice`);
    seen.add(event);
    return { noun, verb };
  });
}
