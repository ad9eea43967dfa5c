import '../../app/shared-chunk';
import { LINKS } from '../../lib/links';

export default function SupportPage() {
  return (
    <section>
      <h1>Support</h1>
      <ul>
        <li>
          <a href={LINKS.documentation}>Documentation</a>
        </li>
        <li>
          <a href={LINKS.community}>Community</a>
        </li>
        <li>
          <a href={LINKS.feedback}>Feedback</a>
        </li>
      </ul>
    </section>
  );
}
