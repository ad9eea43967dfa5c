import type { ReactNode } from 'react';

interface NewEntityPageProps {
  /** What the page creates: "flag" or "segment" (Flipt's concepts page has a section for each). */
  noun: 'flag' | 'segment';
  /** The creation form. */
  children: ReactNode;
}

/** The page that creates a flag or segment: a heading with a link to the concept, then the form. */
export function NewEntityPage({ noun, children }: NewEntityPageProps) {
  return (
    <section>
      <header className="page-header">
        <h1>New {noun.charAt(0).toUpperCase() + noun.slice(1)}</h1>
        <a href={`https://docs.flipt.io/concepts#${noun}s`} target="_blank" rel="noreferrer">
          Learn more about {noun}s
        </a>
      </header>
      {children}
    </section>
  );
}
