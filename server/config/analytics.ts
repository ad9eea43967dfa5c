import * as v from 'valibot';
import { duration, parseDurationMs } from './duration.js';
import { bool, defineSection, num, opt, str } from './section.js';

export const analyticsSection = defineSection({
  key: 'analytics',
  schema: v.strictObject({
    enabled: opt(bool),
    buffer: opt(v.strictObject({ flush_period: opt(duration), capacity: opt(num) })),
    // Flipt v1.61's Prometheus keys, so that each refused one is named, in the file and as a variable;
    // `enabled: false` (Flipt's default) says what Ensign does anyway.
    storage: opt(
      v.strictObject({
        clickhouse: opt(v.unknown()),
        prometheus: opt(
          v.strictObject({
            enabled: opt(
              v.literal(false, 'must be false: analytics are kept in the server database, not read from Prometheus'),
            ),
            url: opt(str),
            headers: opt(v.record(v.string(), v.string())),
          }),
        ),
      }),
    ),
  }),
  refused: {
    'analytics.storage.prometheus.url': 'analytics are kept in the server database, not read from Prometheus',
    'analytics.storage.prometheus.headers': 'analytics are kept in the server database, not read from Prometheus',
    'analytics.storage.clickhouse': 'analytics are kept in the server database',
    'analytics.buffer.capacity': 'counts are kept in memory and flushed every analytics.buffer.flush_period',
  },
  defaults: { enabled: true, buffer: { flush_period: '2s' } },
  resolve: (settings): { analytics: { enabled: boolean; flushIntervalMs: number } } => ({
    analytics: {
      enabled: settings.enabled,
      flushIntervalMs: parseDurationMs(settings.buffer.flush_period, 'analytics.buffer.flush_period'),
    },
  }),
});
