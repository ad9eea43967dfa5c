/**
 * The modules and libraries the shell shares with the lazily loaded pages. Every lazy module imports
 * this file (for no binding), so esbuild emits all of them in one shared chunk instead of a dozen
 * small ones the first page would load one by one (bench/console-size). It also names what the entry
 * loads anyway and a few pages use (react-dom, the icons, the not-found page, the session check): in
 * this chunk rather than in chunks of their own, they come in the same file, compressed with the rest.
 */
import 'react-dom/client';
export * from '@tanstack/react-query';
export * from 'wouter';
export * from 'zustand';
export * from '../api/client';
export * from '../features/flags/routes';
export * from '../stores/namespace';
export * from '../stores/preferences';
export * from '../stores/session';
export * from '../stores/ref';
export * from '../stores/ui';
export * from '../stores/toasts';
export * from '../lib/namespace';
export * from '../lib/links';
export * from '../lib/paths';
export * from '../api/meta';
export * from '../features/namespaces';
export * from '../lib/format';
export * from '../components/Icon';
export * from '../components/NotFound';
export * from '../features/auth';
