import { Menu, MenuButton, MenuItem, MenuProvider } from '@ariakit/react';

export interface Action {
  label: string;
  onSelect(): void;
  disabled?: boolean;
  /** Why the action is disabled (shown as its title). */
  title?: string;
  danger?: boolean;
}

export function ActionsMenu({ actions }: { actions: Action[] }) {
  return (
    <MenuProvider>
      <MenuButton className="button">Actions ▾</MenuButton>
      <Menu gutter={4} className="menu">
        {actions.map((action) => (
          <MenuItem
            key={action.label}
            className={action.danger ? 'menu-item danger' : 'menu-item'}
            disabled={action.disabled}
            accessibleWhenDisabled
            title={action.title}
            onClick={action.onSelect}
          >
            {action.label}
          </MenuItem>
        ))}
      </Menu>
    </MenuProvider>
  );
}
