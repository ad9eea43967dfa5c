import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// As every lazy module does, so that the shared chunk is one file, with no part for the lazy modules alone.
import './app/shared-chunk';
import { App } from './app/App';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
