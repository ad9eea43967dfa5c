import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { errorMessage } from '../../api/client';
import { useWritable } from '../../api/writable';
import { PageLinks } from '../../components/PageLinks';
import { ReasonButton } from '../../components/Tooltip';
import { useNamespaceKey } from '../../lib/namespace';
import { namespacePath } from '../../lib/paths';
import { toastError } from '../../stores/toasts';
import { resultsPaths } from '../survey-results';
import { environmentsQuery, type SurveyEnvironment, surveyPaths, useCreateEnvironments } from './api';

export type SurveysTab = 'surveys' | 'actions' | 'environment' | 'webhooks';

const TABS: { tab: SurveysTab; label: string; href(environmentId: string): string }[] = [
  { tab: 'surveys', label: 'Surveys', href: surveyPaths.list },
  { tab: 'actions', label: 'Actions', href: surveyPaths.actions },
  { tab: 'environment', label: 'Environment', href: surveyPaths.environment },
  { tab: 'webhooks', label: 'Webhooks', href: resultsPaths.webhooks },
];

export const ENVIRONMENT_LABELS: Record<SurveyEnvironment['type'], string> = {
  production: 'Production',
  development: 'Development',
};

/**
 * The frame of every survey page: the namespace's environments (created here on first use), a switch
 * between them, the area's tabs and the current page, given the environment it shows.
 */
export function SurveysArea({
  environmentId,
  tab,
  children,
}: {
  environmentId?: string;
  tab: SurveysTab;
  children(environment: SurveyEnvironment, all: SurveyEnvironment[]): ReactNode;
}) {
  const namespaceKey = useNamespaceKey();
  const environments = useQuery(environmentsQuery(namespaceKey));
  const href = (path: string) => namespacePath(namespaceKey, path);
  if (environments.isPending) return <p className="muted">Loading…</p>;
  if (environments.isError) return <p role="alert">{environments.error.message}</p>;
  const list = environments.data;
  if (list.length === 0) return <CreateEnvironments />;
  const environment = list.find((candidate) => candidate.id === environmentId);
  if (!environment) return <Redirect to={href(surveyPaths.list(list[0].id))} replace />;
  const current = TABS.find((candidate) => candidate.tab === tab)!;
  const tabLinks = TABS.map(({ tab: key, label, href: path }) => ({ key, href: href(path(environment.id)), label }));
  return (
    <section>
      <header className="page-header">
        <h1>Surveys</h1>
        <PageLinks
          label="Survey environment"
          look="segmented"
          links={list.map((candidate) => ({
            key: candidate.id,
            href: href(current.href(candidate.id)),
            label: environmentLabel(candidate, list),
          }))}
          current={environment.id}
        />
      </header>
      <PageLinks label="Surveys" look="tabs" links={tabLinks} current={tab} />
      {children(environment, list)}
    </section>
  );
}

/** The environment's type, and its product's name where another environment of the namespace has that type. */
function environmentLabel(environment: SurveyEnvironment, all: SurveyEnvironment[]): string {
  const label = ENVIRONMENT_LABELS[environment.type];
  const shared = all.filter((other) => other.type === environment.type).length > 1;
  return shared ? `${label} (${environment.product.name})` : label;
}

function CreateEnvironments() {
  const namespaceKey = useNamespaceKey();
  const writable = useWritable();
  const create = useCreateEnvironments(namespaceKey);
  return (
    <section>
      <header className="page-header">
        <h1>Surveys</h1>
      </header>
      <div className="empty-state">
        <p>
          <strong>This namespace has no survey environments yet.</strong>
        </p>
        <p className="muted">
          A namespace is a survey product: it gets a production and a development environment, each with its own
          surveys, actions, snippet and API keys, as Formbricks pairs them.
        </p>
        <ReasonButton
          className="button button-primary"
          reason={writable.reason}
          disabled={create.isPending}
          onClick={() => create.mutateAsync(undefined).catch((error) => toastError(errorMessage(error)))}
        >
          Create survey environments
        </ReasonButton>
      </div>
    </section>
  );
}
