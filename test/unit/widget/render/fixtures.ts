import { vi } from 'vitest';
import type { RenderSurveyModalProps, TSurvey } from '../../../../domain/surveys/types.js';
export { makeSurvey } from './survey-fixture.js';

export function makeProps(survey: TSurvey, overrides: Partial<RenderSurveyModalProps> = {}) {
  const defaults = {
    survey,
    brandColor: '#334155',
    isBrandingEnabled: true,
    clickOutside: true,
    darkOverlay: false,
    highlightBorderColor: null,
    placement: 'bottomRight' as const,
    getSetIsError: vi.fn(),
    getSetIsResponseSendingFinished: vi.fn(),
    onDisplay: vi.fn(async () => {}),
    onResponse: vi.fn(),
    onClose: vi.fn(async () => {}),
    onFileUpload: vi.fn(async (file: File) => `/storage/env/private/${file.name.replace('.', '--fid--1234.')}`),
    onRetry: vi.fn(),
  } satisfies RenderSurveyModalProps;
  return Object.assign(defaults, overrides);
}
