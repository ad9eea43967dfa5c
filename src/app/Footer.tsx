import { useInfo } from '../api/meta';
import { shortCommit } from '../lib/format';
import { LINKS, PRODUCT_NAME } from '../lib/links';

export function Footer() {
  const info = useInfo();
  const version = !info.isRelease && info.commit ? shortCommit(info.commit) : info.version;
  return (
    <footer className="footer">
      <span>{version}</span>
      <span>
        © {new Date().getFullYear()} {PRODUCT_NAME}
      </span>
      <a href={LINKS.changelog} target="_blank" rel="noreferrer">
        Changelog
      </a>
      <a href={LINKS.feedback} target="_blank" rel="noreferrer">
        Feedback
      </a>
      <a href={LINKS.github} target="_blank" rel="noreferrer">
        GitHub
      </a>
      <a href={LINKS.discord} target="_blank" rel="noreferrer">
        Discord
      </a>
    </footer>
  );
}
