/**
 * The survey renderer: `renderSurveyModal(props)` with the props of @formbricks/surveys 1.6,
 * drawn in a Shadow DOM under #formbricks-web-container.
 */
export interface RenderSurveyModalProps {
  [prop: string]: unknown;
}

export function renderSurveyModal(_props: RenderSurveyModalProps): void {}
