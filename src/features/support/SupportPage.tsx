import '../../app/shared-chunk';
import { useInfo } from '../../api/meta';
import { Icon, type IconName } from '../../components/Icon';
import { LINKS } from '../../lib/links';
import { useNamespaceStore } from '../../stores/namespace';
import { SdkSnippets } from '../onboarding';

const RESOURCES: { icon: IconName; title: string; href: string; text: string }[] = [
  { icon: 'book', title: 'Documentation', href: LINKS.documentation, text: 'Concepts, configuration and SDKs.' },
  {
    icon: 'console',
    title: 'API Reference',
    href: LINKS.apiReference,
    text: 'Every REST endpoint this server speaks.',
  },
  { icon: 'chat', title: 'Community', href: LINKS.community, text: 'Questions and answers from other operators.' },
  { icon: 'external', title: 'Feedback', href: LINKS.feedback, text: 'Report a problem or ask for a feature.' },
];

export default function SupportPage() {
  const info = useInfo();
  const current = useNamespaceStore((state) => state.current);
  return (
    <section className="guide">
      <h1>Support</h1>
      <p className="muted">Server version {info.version}.</p>
      <ul className="cards">
        {RESOURCES.map((resource) => (
          <li key={resource.title} className="card">
            <Icon name={resource.icon} />
            <div>
              <a href={resource.href}>{resource.title}</a>
              <p className="muted">{resource.text}</p>
            </div>
          </li>
        ))}
      </ul>
      <h2>Connect an application</h2>
      <p>Evaluate a flag of the current namespace ({current}) with Flipt's SDKs or plain HTTP:</p>
      <SdkSnippets namespaceKey={current} />
      <h2>Surveys</h2>
      <p>
        The <a href="/demo/">survey demo page</a> runs the in-app survey widget against this server; its panel
        identifies a visitor, tracks actions and lists the recorded responses.
      </p>
    </section>
  );
}
