import * as v from 'valibot';
import { bool, defineSection, opt } from './section.js';

export const metricsSection = defineSection({
  key: 'metrics',
  schema: v.strictObject({
    enabled: opt(bool),
    exporter: opt(v.picklist(['prometheus'], 'must be "prometheus" (the OTLP metrics exporter is not supported)')),
  }),
  /** `GET /metrics` in Prometheus text format. */
  defaults: { enabled: true, exporter: 'prometheus' },
  resolve: (settings): { metrics: { enabled: boolean } } => ({ metrics: { enabled: settings.enabled } }),
});
