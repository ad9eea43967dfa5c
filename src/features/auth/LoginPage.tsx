import '../../app/shared-chunk';
import { useState } from 'react';
import { Redirect } from 'wouter';
import { errorMessage } from '../../api/client';
import { authorizeAddress } from './api';
import { useSessionStore } from '../../stores/session';
import { loginProviders, type LoginProvider } from './methods';
import { useAuthMethods } from '../../api/authMethods';

/**
 * Sign-in: one button per enabled session method. A button asks the server for the provider's
 * authorize address (which also sets the login state cookie) and leaves for it.
 */
export default function LoginPage() {
  const authenticated = useSessionStore((state) => state.session?.authenticated ?? false);
  const methods = useAuthMethods();
  const [error, setError] = useState<string>();
  const [leaving, setLeaving] = useState<string>();

  if (authenticated) return <Redirect to="/" replace />;

  const signIn = async (provider: LoginProvider) => {
    setError(undefined);
    setLeaving(provider.name);
    try {
      window.location.href = await authorizeAddress(provider);
    } catch (failure) {
      setLeaving(undefined);
      setError(errorMessage(failure));
    }
  };

  const providers = methods.data ? loginProviders(methods.data.methods) : [];
  return (
    <main className="login">
      <h1>Login</h1>
      {methods.isError && <p role="alert">{errorMessage(methods.error)}</p>}
      {methods.isSuccess && providers.length === 0 && (
        <p className="muted">No login method is enabled on this server. Use an API token with the API instead.</p>
      )}
      {providers.length > 0 && (
        <ul className="login-providers">
          {providers.map((provider) => (
            <li key={provider.name}>
              <button
                type="button"
                className="button"
                disabled={leaving !== undefined}
                onClick={() => signIn(provider)}
              >
                {leaving === provider.name && <span className="spinner" aria-hidden="true" />}
                Login with {provider.label}
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
    </main>
  );
}
