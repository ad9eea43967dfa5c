/**
 * The console's icons: inline SVG on a 24-unit grid, stroked with the current text colour, so that
 * they render without any icon or emoji font. Each is a single path.
 */
const PATHS = {
  flag: 'M5 21V4m0 0h11l-2 4 2 4H5',
  segments: 'M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm-6 9a6 6 0 0 1 12 0m1-9a3 3 0 1 0 0-6m2 15h3a6 6 0 0 0-4-5.6',
  console: 'M4 5h16v14H4zm3 4 3 3-3 3m5 0h5',
  settings:
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm7.4-3 1.6-1.2-2-3.5-1.9.6a7 7 0 0 0-1.7-1L15 3h-4l-.4 1.9a7 7 0 0 0-1.7 1L7 5.3l-2 3.5L6.6 10a7 7 0 0 0 0 2L5 13.2l2 3.5 1.9-.6a7 7 0 0 0 1.7 1L11 19h4l.4-1.9a7 7 0 0 0 1.7-1l1.9.6 2-3.5-1.6-1.2a7 7 0 0 0 0-2Z',
  support: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Zm-2.5-11.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.5V14m0 3v.01',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  check: 'm5 12 5 5 9-10',
  cross: 'm6 6 12 12M18 6 6 18',
  play: 'M7 4v16l13-8z',
  plus: 'M12 5v14m-7-7h14',
  up: 'm6 15 6-6 6 6',
  down: 'm6 9 6 6 6-6',
  grip: 'M9 6h.01M9 12h.01M9 18h.01M15 6h.01M15 12h.01M15 18h.01',
  lock: 'M6 11h12v9H6zm2 0V8a4 4 0 0 1 8 0v3',
  book: 'M4 5a2 2 0 0 1 2-2h14v16H6a2 2 0 0 0-2 2zm0 16V5',
  chat: 'M4 5h16v11H9l-5 4z',
  external: 'M14 4h6v6m0-6-9 9m-2-7H4v14h14v-5',
  layers: 'm12 3 9 5-9 5-9-5zm-9 9 9 5 9-5',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 18 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
