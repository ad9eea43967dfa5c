import { useToastStore } from '../stores/toasts';

/** Red 'Error' toasts stay until dismissed; green success toasts vanish after 3 s. */
export function Toaster() {
  const toasts = useToastStore((state) => state.toasts);
  const dismiss = useToastStore((state) => state.dismiss);
  return (
    <div className="toaster">
      {toasts.map((toast) =>
        toast.kind === 'error' ? (
          <div key={toast.id} className="toast toast-error" role="alert">
            <div>
              <strong>Error</strong>
              <p>{toast.message}</p>
            </div>
            <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
              ×
            </button>
          </div>
        ) : (
          <div key={toast.id} className="toast toast-success" role="status">
            {toast.message}
          </div>
        ),
      )}
    </div>
  );
}
