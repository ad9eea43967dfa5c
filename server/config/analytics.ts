import * as v from 'valibot';
import { duration, parseDurationMs } from './duration.js';
import { bool, defineSection, num, opt } from './section.js';

export const analyticsSection = defineSection({
  key: 'analytics',
  schema: v.strictObject({
    enabled: opt(bool),
    buffer: opt(v.strictObject({ flush_period: opt(duration), capacity: opt(num) })),
    storage: opt(v.unknown()),
  }),
  refused: {
    'analytics.storage': 'analytics are kept in the server database',
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
