import './shared-chunk';
import { Dialog } from '@ariakit/react';
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useLocation } from 'wouter';
import { useNamespaces } from '../features/namespaces';
import { useNamespaceStore } from '../stores/namespace';
import { usePreferencesStore, type Theme } from '../stores/preferences';
import { namespacePath, namespacedSection } from '../lib/paths';

interface Command {
  label: string;
  run(): void;
}

const THEMES: [Theme, string][] = [
  ['light', 'Light'],
  ['dark', 'Dark'],
  ['system', 'System'],
];

function useCommands(): Command[] {
  const [location, navigate] = useLocation();
  const namespaces = useNamespaces().data?.namespaces ?? [];
  const current = useNamespaceStore((state) => state.current);
  const setCurrent = useNamespaceStore((state) => state.setCurrent);
  const setTheme = usePreferencesStore((state) => state.setTheme);
  return useMemo(() => {
    const go = (path: string) => () => navigate(path);
    const commands: Command[] = [
      { label: 'Flags', run: go(namespacePath(current, '/flags')) },
      { label: 'Segments', run: go(namespacePath(current, '/segments')) },
      { label: 'Console', run: go(namespacePath(current, '/console')) },
      { label: 'Settings: General', run: go('/settings') },
      { label: 'Settings: Namespaces', run: go('/settings/namespaces') },
      { label: 'Settings: API Tokens', run: go('/settings/tokens') },
      { label: 'Support', run: go('/support') },
    ];
    if (namespaces.length > 1) {
      for (const namespace of namespaces) {
        commands.push({
          label: `Switch Namespaces: ${namespace.name}`,
          run: () => {
            setCurrent(namespace.key);
            navigate(namespacePath(namespace.key, `/${namespacedSection(location) ?? 'flags'}`));
          },
        });
      }
    }
    for (const [theme, label] of THEMES) {
      commands.push({ label: `Preferences: Change Theme: ${label}`, run: () => setTheme(theme) });
    }
    return commands;
  }, [location, navigate, namespaces, current, setCurrent, setTheme]);
}

/** The command palette: ctrl/cmd + k toggles it, Escape closes it. */
export default function CommandPalette({ onClose }: { onClose(): void }) {
  const commands = useCommands();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const matches = commands.filter((command) => command.label.toLowerCase().includes(query.trim().toLowerCase()));
  const selected = Math.min(active, matches.length - 1);

  const run = (command: Command | undefined) => {
    if (!command) return;
    onClose();
    command.run();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') setActive((selected + 1) % Math.max(1, matches.length));
    else if (event.key === 'ArrowUp') setActive((selected - 1 + matches.length) % Math.max(1, matches.length));
    else if (event.key === 'Enter') run(matches[selected]);
    else return;
    event.preventDefault();
  };

  return (
    <Dialog
      open
      onClose={onClose}
      className="dialog palette"
      backdrop={<div className="backdrop" />}
      aria-label="Command palette"
    >
      <input
        className="palette-input"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={matches.length ? `${listId}-${selected}` : undefined}
        aria-label="Search commands"
        placeholder="Search…"
        autoFocus
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a listbox driven from the search field (aria-activedescendant) */}
      <ul id={listId} role="listbox" className="palette-list" aria-label="Commands">
        {matches.map((command, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: options are chosen with the search field's arrow keys
          // biome-ignore lint/a11y/useFocusableInteractive: focus stays in the search field (aria-activedescendant)
          <li
            key={command.label}
            id={`${listId}-${index}`}
            // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: an option of the listbox above
            role="option"
            aria-selected={index === selected}
            className="palette-option"
            onMouseEnter={() => setActive(index)}
            onClick={() => run(command)}
          >
            {command.label}
          </li>
        ))}
      </ul>
      {matches.length === 0 && <p className="muted palette-empty">No results found</p>}
    </Dialog>
  );
}
