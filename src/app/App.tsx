import { QueryClientProvider } from '@tanstack/react-query';
import { Route, Router, Switch } from 'wouter';
import { useHashLocation } from 'wouter/use-hash-location';
import { createQueryClient } from './queryClient';
import { Layout } from './Layout';

const queryClient = createQueryClient();

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Router hook={useHashLocation}>
        <Switch>
          <Route path="/">
            <Layout />
          </Route>
          <Route>
            <Layout>
              <h2>Not Found</h2>
            </Layout>
          </Route>
        </Switch>
      </Router>
    </QueryClientProvider>
  );
}
