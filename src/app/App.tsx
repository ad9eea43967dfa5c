import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, lazy, useEffect } from 'react';
import { Route, Router, Switch } from 'wouter';
import { useHashLocation } from 'wouter/use-hash-location';
import { clearOnRefChange, createQueryClient } from './queryClient';
import { Layout } from './Layout';

const queryClient = createQueryClient();
const LoginPage = lazy(() => import('../features/auth/LoginPage'));

export function App() {
  useEffect(() => clearOnRefChange(queryClient), []);
  return (
    <QueryClientProvider client={queryClient}>
      <Router hook={useHashLocation}>
        <Switch>
          <Route path="/login">
            <Suspense>
              <LoginPage />
            </Suspense>
          </Route>
          <Route>
            <Layout />
          </Route>
        </Switch>
      </Router>
    </QueryClientProvider>
  );
}
