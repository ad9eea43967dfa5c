import type { ReactNode } from 'react';

interface NewEntityPageProps {
  /** The page heading, e.g. "New Flag". */
  title: string;
  learnMoreHref: string;
  /** e.g. "Learn more about flags". */
  learnMoreLabel: string;
  /** The creation form. */
  children: ReactNode;
}

/** The page that creates a flag or segment: a heading with a link to the concept, then the form. */
export function NewEntityPage({ title, learnMoreHref, learnMoreLabel, children }: NewEntityPageProps) {
  return (
    <section>
      <header className="page-header">
        <h1>{title}</h1>
        <a href={learnMoreHref} target="_blank" rel="noreferrer">
          {learnMoreLabel}
        </a>
      </header>
      {children}
    </section>
  );
}
