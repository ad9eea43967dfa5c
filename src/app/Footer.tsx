import { useInfo } from '../api/meta';
import { shortCommit } from '../lib/format';
import { LINKS, PRODUCT_NAME } from '../lib/links';

const FOOTER_LINKS = [
  ['Changelog', LINKS.changelog],
  ['Feedback', LINKS.feedback],
  ['GitHub', LINKS.github],
  ['Discord', LINKS.discord],
] as const;

export function Footer() {
  const info = useInfo();
  const version = !info.isRelease && info.commit ? shortCommit(info.commit) : info.version;
  return (
    <footer className="footer">
      <span>{version}</span>
      <span>
        © {new Date().getFullYear()} {PRODUCT_NAME}
      </span>
      {FOOTER_LINKS.map(([label, href]) => (
        <a key={label} href={href} target="_blank" rel="noreferrer">
          {label}
        </a>
      ))}
    </footer>
  );
}
