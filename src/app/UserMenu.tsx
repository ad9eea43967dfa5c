import './shared-chunk';
import { Menu, MenuButton, MenuItem, MenuProvider, useMenuStore } from '@ariakit/react';
import { logout } from '../features/auth';
import { toastError } from '../stores/toasts';
import { errorMessage } from '../api/client';
import { type ReactNode, useEffect, useRef } from 'react';
import type { SessionUser } from '../stores/session';

/** Where focus goes as the menu opens, as ariakit's MenuButton chooses it: pointer click, Enter or Space, arrow keys. */
export type InitialFocus = 'container' | 'first' | 'last';

interface UserMenuProps {
  user: SessionUser;
  initialFocus: InitialFocus;
  /** The button's content, the avatar. */
  children: ReactNode;
}

/**
 * The user menu: name, login and Logout for the signed-in user of the session store. The top bar loads
 * it on the first press of its plain button, so it opens as it mounts, as that press would have opened it.
 */
export default function UserMenu({ user, initialFocus, children }: UserMenuProps) {
  const menu = useMenuStore();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    menu.setDisclosureElement(button.current);
    menu.setAutoFocusOnShow(true);
    menu.setInitialFocus(initialFocus);
    menu.show();
  }, [menu, initialFocus]);
  return (
    <MenuProvider store={menu}>
      <MenuButton ref={button} className="user-button" aria-label={`User menu: ${user.name}`}>
        {children}
      </MenuButton>
      <Menu gutter={8} className="menu">
        <div className="menu-header">
          <strong>{user.name}</strong>
          {user.login && <span className="muted">{user.login}</span>}
        </div>
        <MenuItem className="menu-item" onClick={() => logout().catch((error) => toastError(errorMessage(error)))}>
          Logout
        </MenuItem>
      </Menu>
    </MenuProvider>
  );
}
