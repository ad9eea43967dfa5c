import {
  FloatingPortal,
  autoUpdate,
  flip,
  offset,
  shift,
  useDismiss,
  useFloating,
  useFocus,
  useHover,
  useInteractions,
  useRole,
} from '@floating-ui/react';
import { useId, useState, type ButtonHTMLAttributes, type MouseEvent } from 'react';

interface ReasonButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /**
   * Why the button cannot be used (e.g. read-only mode). The button then stays focusable with
   * `aria-disabled`, does nothing, and shows the reason as a tooltip on hover and keyboard focus.
   */
  reason?: string;
  /** A tooltip for a usable button, e.g. the name of an icon button. */
  tip?: string;
}

/** A button with a tooltip positioned by floating-ui: its disabled reason, or a tip. */
export function ReasonButton({ reason, tip, disabled, onClick, children, ...props }: ReasonButtonProps) {
  const [open, setOpen] = useState(false);
  const tooltipId = useId();
  const { refs, floatingStyles, context } = useFloating({
    open,
    onOpenChange: setOpen,
    placement: 'top',
    middleware: [offset(6), flip(), shift({ padding: 8 })],
    whileElementsMounted: autoUpdate,
  });
  const { getReferenceProps, getFloatingProps } = useInteractions([
    useHover(context, { move: false }),
    // Any focus, by keyboard or pointer, shows the reason.
    useFocus(context, { visibleOnly: false }),
    useDismiss(context),
    useRole(context, { role: 'tooltip' }),
  ]);
  const text = reason ?? tip;
  if (!text)
    return (
      <button type="button" disabled={disabled} onClick={onClick} {...props}>
        {children}
      </button>
    );
  // A reason is announced with the button (aria-describedby), not only while the tooltip is open.
  const block = (event: MouseEvent<HTMLButtonElement>) => event.preventDefault();
  return (
    <>
      <button
        type="button"
        {...getReferenceProps({ ...props, ref: refs.setReference, onClick: reason ? block : onClick })}
        {...(reason ? { 'aria-disabled': true, 'aria-describedby': tooltipId } : { disabled })}
      >
        {children}
      </button>
      {reason && !open && (
        <span id={tooltipId} className="visually-hidden">
          {reason}
        </span>
      )}
      {open && (
        <FloatingPortal>
          <div
            ref={refs.setFloating}
            className="tooltip"
            style={floatingStyles}
            {...getFloatingProps()}
            {...(reason && { id: tooltipId })}
          >
            {text}
          </div>
        </FloatingPortal>
      )}
    </>
  );
}
