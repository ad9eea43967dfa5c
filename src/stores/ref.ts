import { create } from 'zustand';
import { persist } from 'zustand/middleware';

interface RefState {
  /** The storage reference (git ref) every api/v1 call is made against; empty for the default. */
  ref: string;
  setRef(ref: string): void;
}

export const useRefStore = create<RefState>()(
  persist((set) => ({ ref: '', setRef: (ref) => set({ ref }) }), { name: 'ref' }),
);
