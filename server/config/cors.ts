import * as v from 'valibot';
import { bool, defineSection, opt, strList } from './section.js';

export interface CorsConfig {
  /** For the routes browsers call from another origin (server/evaluation/cors.ts). */
  cors: { enabled: boolean; allowedOrigins: string[]; allowedHeaders: string[] };
}

// Flipt's list, and If-None-Match and X-Flipt-Environment for the clients' conditional polling.
const DEFAULT_ALLOWED_HEADERS = [
  'Accept',
  'Authorization',
  'Content-Type',
  'X-CSRF-Token',
  'X-Fern-Language',
  'X-Fern-SDK-Name',
  'X-Fern-SDK-Version',
  'X-Flipt-Namespace',
  'X-Flipt-Accept-Server-Version',
  'X-Flipt-Environment',
  'If-None-Match',
];

export const corsSection = defineSection({
  key: 'cors',
  schema: v.strictObject({ enabled: opt(bool), allowed_origins: opt(strList), allowed_headers: opt(strList) }),
  defaults: { enabled: false, allowed_origins: ['*'], allowed_headers: DEFAULT_ALLOWED_HEADERS },
  resolve: (settings): CorsConfig => ({
    cors: {
      enabled: settings.enabled,
      allowedOrigins: settings.allowed_origins,
      allowedHeaders: settings.allowed_headers,
    },
  }),
});
