import { create } from 'zustand';
import { errorMessage } from '../api/client';

export const SUCCESS_TOAST_MS = 3000;

export interface Toast {
  id: number;
  kind: 'success' | 'error';
  message: string;
}

interface ToastState {
  toasts: Toast[];
  push(kind: Toast['kind'], message: string): void;
  dismiss(id: number): void;
}

let nextId = 1;

export const useToastStore = create<ToastState>()((set, get) => ({
  toasts: [],
  push(kind, message) {
    const id = nextId++;
    set({ toasts: [...get().toasts, { id, kind, message }] });
    if (kind === 'success') setTimeout(() => get().dismiss(id), SUCCESS_TOAST_MS);
  },
  dismiss: (id) => set({ toasts: get().toasts.filter((toast) => toast.id !== id) }),
}));

export const toastSuccess = (message: string) => useToastStore.getState().push('success', message);
export const toastError = (message: string) => useToastStore.getState().push('error', message);

/** Reports how an action ended: `success` as a toast, or the error's message as an error toast. */
export const toastOutcome = (action: Promise<unknown>, success: string) =>
  action.then(() => toastSuccess(success)).catch((error) => toastError(errorMessage(error)));
