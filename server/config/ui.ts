import * as v from 'valibot';
import { bool, defineSection, opt, str } from './section.js';

export type Theme = 'system' | 'light' | 'dark';

export interface UiConfig {
  ui: {
    /** false: the console is not served (the APIs are). */
    enabled: boolean;
    defaultTheme: Theme;
    topbar: { color: string; label: string };
    banner?: { text: string; link?: string; linkText?: string };
    surveyEnvironmentId?: string;
  };
}

export const uiSection = defineSection({
  key: 'ui',
  schema: v.strictObject({
    enabled: opt(bool),
    default_theme: opt(v.picklist(['system', 'light', 'dark'], 'must be "system", "light" or "dark"')),
    topbar: opt(v.strictObject({ color: opt(str), label: opt(str) })),
    banner: opt(v.strictObject({ text: opt(str), link: opt(str), link_text: opt(str) })),
    // Ensign's own: the survey environment the console opens on.
    survey_environment: opt(str),
  }),
  defaults: { enabled: true, default_theme: 'system' },
  resolve(file): UiConfig {
    const ui: UiConfig['ui'] = {
      enabled: file.enabled,
      defaultTheme: file.default_theme,
      topbar: { color: file.topbar?.color ?? '', label: file.topbar?.label ?? '' },
    };
    if (file.banner?.text)
      ui.banner = { text: file.banner.text, link: file.banner.link, linkText: file.banner.link_text };
    if (file.survey_environment) ui.surveyEnvironmentId = file.survey_environment;
    return { ui };
  },
});
