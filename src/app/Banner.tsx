import { useConfig } from '../api/meta';
import { useBannerStore } from '../stores/ui';

/** The dismissible banner from the server's UI configuration; remembered once dismissed. */
export function Banner() {
  const banner = useConfig().ui.banner;
  const dismissed = useBannerStore((state) => state.dismissed);
  const dismiss = useBannerStore((state) => state.dismiss);
  if (!banner || dismissed) return null;
  return (
    <aside className="banner" aria-label="Announcement">
      <span>{banner.text}</span>
      {banner.link && (
        <a href={banner.link} target="_blank" rel="noreferrer">
          {banner.linkText || 'Learn more'}
        </a>
      )}
      <button type="button" className="icon-button" aria-label="Dismiss banner" onClick={dismiss}>
        ×
      </button>
    </aside>
  );
}
