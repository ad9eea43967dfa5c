import { useQuery } from '@tanstack/react-query';
import { useNamespaceKey } from '../../lib/namespace';
import { environmentsQuery, type SurveyEnvironment } from './api';
import { Snippets, WidgetSeen } from './WidgetSetup';

/** How often the guide asks whether a widget has synced yet. */
const WAIT_MS = 3000;

/**
 * The first thing a new environment's survey list shows: the snippet, then the first sign of the widget
 * (asked for every few seconds until a site's widget has synced), then the way on to the surveys.
 */
export function SetupGuide({ environment, onDone }: { environment: SurveyEnvironment; onDone(): void }) {
  const namespaceKey = useNamespaceKey();
  const seen = environment.widgetSetupCompleted;
  // Refetches the list the surveys area reads, which then passes the environment in again.
  useQuery({ ...environmentsQuery(namespaceKey), refetchInterval: seen ? false : WAIT_MS });
  return (
    <section className="panel" aria-labelledby="guide-heading">
      <h2 id="guide-heading" className="panel-title">
        Put this environment's surveys on your site
      </h2>
      <ol className="guide-steps">
        <li>
          <strong>Add a snippet to every page of your site.</strong>
          <p className="muted">
            Ensign's own loader, today's <code>@formbricks/js</code> 5 and <code>@formbricks/js</code> 1.6.5 all work
            with this server; pick the one your site uses.
          </p>
          <Snippets environment={environment} />
        </li>
        <li>
          <strong>Open a page of your site.</strong>
          <p className="muted">The first sync of a widget shows here.</p>
          <p role="status">
            <WidgetSeen environment={environment} />
          </p>
        </li>
        <li>
          <strong>Create a survey.</strong>
          <p className="muted">Publish it and the widget shows it on the next visit of a page with the snippet.</p>
        </li>
      </ol>
      <button type="button" className={seen ? 'button button-primary' : 'button'} onClick={onDone}>
        {seen ? 'Continue to surveys' : 'Skip for now'}
      </button>
    </section>
  );
}
