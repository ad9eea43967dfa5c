import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { DEFAULT_NAMESPACE } from '../../domain/flipt/types';

interface NamespaceState {
  current: string;
  setCurrent(key: string): void;
}

export const useNamespaceStore = create<NamespaceState>()(
  persist((set) => ({ current: DEFAULT_NAMESPACE, setCurrent: (current) => set({ current }) }), { name: 'namespace' }),
);
