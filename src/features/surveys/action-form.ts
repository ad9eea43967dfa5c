import * as v from 'valibot';
import { actionClassInputSchema, issuesByPath } from '../../../domain/surveys/schema';
import { type TActionClass, URL_RULES } from '../../../domain/surveys/types';
import { URL_RULE_LABELS } from './labels';

const actionClassFields = v.object({
  name: v.string(),
  description: v.string(),
  type: v.picklist(['code', 'noCode']),
  kind: v.picklist(['pageUrl', 'cssSelector', 'innerHtml']),
  rule: v.picklist(URL_RULES),
  value: v.string(),
});

/** The action class form: a code action, or a no-code one on a page URL (with its rule), a CSS selector or a text. */
export type ActionClassForm = v.InferOutput<typeof actionClassFields>;

/** The form's schema: its fields, and what it sends checked by the same schema as the server's (problems by field). */
export const actionClassFormSchema = v.pipe(
  actionClassFields,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const form = dataset.value;
    for (const [key, message] of Object.entries(actionClassProblems(form)) as ['name' | 'value', string][]) {
      addIssue({ message, path: [{ type: 'object', origin: 'value', input: form, key, value: form[key] }] });
    }
  }),
);

export const EMPTY_ACTION_CLASS: ActionClassForm = {
  name: '',
  description: '',
  type: 'code',
  kind: 'pageUrl',
  rule: 'contains',
  value: '',
};

/** The form of a stored action class (one rule: the first of page URL, CSS selector, text it has). */
export function actionClassForm(
  actionClass: Pick<TActionClass, 'name' | 'description' | 'type' | 'noCodeConfig'>,
): ActionClassForm {
  const config = actionClass.noCodeConfig;
  const kind = config?.type ?? (config?.pageUrl ? 'pageUrl' : config?.cssSelector ? 'cssSelector' : 'innerHtml');
  return {
    name: actionClass.name,
    description: actionClass.description ?? '',
    type: actionClass.type === 'noCode' ? 'noCode' : 'code',
    kind: config ? kind : 'pageUrl',
    rule: config?.pageUrl?.rule ?? 'contains',
    value: config?.[kind]?.value ?? '',
  };
}

/** What the form sends: the management API's action class. */
export function actionClassInput(form: ActionClassForm) {
  const noCodeConfig =
    form.type === 'noCode'
      ? form.kind === 'pageUrl'
        ? { type: 'pageUrl' as const, pageUrl: { value: form.value.trim(), rule: form.rule } }
        : { type: form.kind, [form.kind]: { value: form.value.trim() } }
      : null;
  return { name: form.name.trim(), description: form.description.trim() || null, type: form.type, noCodeConfig };
}

/** The form's problems by field (name, value), checked by the same schema as the server's. */
export function actionClassProblems(form: ActionClassForm): { name?: string; value?: string } {
  const result = v.safeParse(actionClassInputSchema, actionClassInput(form));
  if (result.success) return {};
  const issues = issuesByPath(result.issues);
  const value = Object.entries(issues).find(([path]) => path.startsWith('noCodeConfig'))?.[1];
  return { ...(issues.name && { name: issues.name }), ...(value && { value }) };
}

/** What fires an action class, in words. */
export function actionClassDescription(actionClass: Pick<TActionClass, 'type' | 'name' | 'noCodeConfig'>): string {
  if (actionClass.type === 'code') return `formbricks.track('${actionClass.name}')`;
  if (actionClass.type === 'automatic') return 'Built in';
  const config = actionClass.noCodeConfig;
  const parts: string[] = [];
  if (config?.pageUrl)
    parts.push(`Page URL ${URL_RULE_LABELS[config.pageUrl.rule].toLowerCase()} “${config.pageUrl.value}”`);
  if (config?.cssSelector) parts.push(`Click on ${config.cssSelector.value}`);
  if (config?.innerHtml) parts.push(`Click on “${config.innerHtml.value}”`);
  return parts.join('; ');
}
