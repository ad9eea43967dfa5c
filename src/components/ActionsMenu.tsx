import { Menu, MenuButton, MenuItem, MenuProvider, useMenuStore } from '@ariakit/react';
import { useId, useRef, type KeyboardEvent } from 'react';
import { Icon } from './Icon';
import { useTooltip } from './Tooltip';

export interface Action {
  label: string;
  onSelect(): void;
  disabled?: boolean;
  /** Why the action is disabled: a tooltip on hover and focus, and the item's description. */
  reason?: string;
  danger?: boolean;
}

/** Typed characters select the first enabled item starting with them until 350 ms pass without typing. */
export const TYPEAHEAD_RESET_MS = 350;

export function ActionsMenu({ actions }: { actions: Action[] }) {
  const menu = useMenuStore();
  const baseId = useId();
  const typed = useRef({ chars: '', timer: 0 });

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return;
    window.clearTimeout(typed.current.timer);
    typed.current.chars += event.key.toLowerCase();
    typed.current.timer = window.setTimeout(() => (typed.current.chars = ''), TYPEAHEAD_RESET_MS);
    const index = actions.findIndex(
      (action) => !action.disabled && action.label.toLowerCase().startsWith(typed.current.chars),
    );
    if (index >= 0) menu.move(`${baseId}-${index}`);
  };

  return (
    <MenuProvider store={menu}>
      <MenuButton className="button">
        Actions
        <Icon name="down" size={16} />
      </MenuButton>
      <Menu portal gutter={4} className="menu" typeahead={false} onKeyDown={onKeyDown}>
        {actions.map((action, index) => (
          <ActionItem key={action.label} id={`${baseId}-${index}`} action={action} />
        ))}
      </Menu>
    </MenuProvider>
  );
}

/** A menu item; a disabled one stays reachable by the arrow keys and shows its reason. */
function ActionItem({ id, action }: { id: string; action: Action }) {
  const tooltip = useTooltip({ reason: action.disabled ? action.reason : undefined });
  return (
    <>
      <MenuItem
        {...tooltip.referenceProps()}
        id={id}
        className={action.danger ? 'menu-item danger' : 'menu-item'}
        disabled={action.disabled}
        accessibleWhenDisabled
        onClick={action.onSelect}
      >
        {action.label}
      </MenuItem>
      {tooltip.tooltip}
    </>
  );
}
