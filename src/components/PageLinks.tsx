import type { ReactNode } from 'react';
import { Link } from 'wouter';

export interface PageLinkItem {
  key: string;
  href: string;
  label: ReactNode;
}

interface PageLinksProps {
  /** Names the row, e.g. "Flag". */
  label: string;
  /** Tabs above a page, or a segmented switch between views. */
  look: 'tabs' | 'segmented';
  links: readonly PageLinkItem[];
  /** The key of the page shown, marked `aria-current="page"`. */
  current: string;
}

/** A row of links to pages of the same kind, the one shown marked as such. */
export function PageLinks({ label, look, links, current }: PageLinksProps) {
  return (
    <nav className={look} aria-label={label}>
      {links.map((link) => (
        <Link
          key={link.key}
          href={link.href}
          className={look === 'tabs' ? 'tab' : 'segmented-option'}
          aria-current={link.key === current ? 'page' : undefined}
        >
          {link.label}
        </Link>
      ))}
    </nav>
  );
}
