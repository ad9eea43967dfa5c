import './shared-chunk';
import { Menu, MenuButton, MenuItem, MenuProvider } from '@ariakit/react';
import { logout } from '../features/auth';
import { toastError } from '../stores/toasts';
import { errorMessage } from '../api/client';
import type { SessionUser } from '../stores/session';

/** The user menu: name, login and Logout for the signed-in user of the session store. */
export default function UserMenu({ user }: { user: SessionUser }) {
  return (
    <MenuProvider>
      <MenuButton className="user-button" aria-label={`User menu: ${user.name}`}>
        {user.imgURL ? (
          <img className="avatar" src={user.imgURL} alt="" />
        ) : (
          <span className="avatar">{user.name[0]}</span>
        )}
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
