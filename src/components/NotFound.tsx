import { Link } from 'wouter';
import { LINKS } from '../lib/links';

export function NotFound() {
  return (
    <section className="not-found">
      <h1>Not Found</h1>
      <p>The page you are looking for could not be found.</p>
      <h2>Popular pages</h2>
      <ul>
        <li>
          <a href={LINKS.documentation}>Documentation</a>
        </li>
        <li>
          <a href={LINKS.apiReference}>API Reference</a>
        </li>
        <li>
          <a href={LINKS.community}>Community</a>
        </li>
        <li>
          <a href={LINKS.blog}>Blog</a>
        </li>
      </ul>
      <Link href="/">Home</Link>
    </section>
  );
}
