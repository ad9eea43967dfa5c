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
import { useId, useState, type ButtonHTMLAttributes, type HTMLProps, type MouseEvent } from 'react';

/**
 * A tooltip positioned by floating-ui, shown on hover and on any focus (keyboard or pointer).
 * A `reason` (why a control cannot be used) is also announced with its control through
 * `aria-describedby`, not only while the tooltip is open; a `tip` only names an icon button.
 */
export function useTooltip({ reason, tip }: { reason?: string; tip?: string }) {
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
    useFocus(context, { visibleOnly: false }),
    useDismiss(context),
    useRole(context, { role: 'tooltip' }),
  ]);
  const text = reason ?? tip;
  return {
    text,
    /** Props for the control: its ref, the hover and focus handlers, and the reason's description. */
    referenceProps: (props: HTMLProps<Element> = {}) =>
      getReferenceProps({
        ...props,
        ref: refs.setReference,
        ...(reason && { 'aria-describedby': tooltipId }),
      }),
    tooltip: !text ? null : open ? (
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
    ) : (
      reason && (
        <span id={tooltipId} className="visually-hidden">
          {reason}
        </span>
      )
    ),
  };
}

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
  const tooltip = useTooltip({ reason, tip });
  if (!tooltip.text)
    return (
      <button type="button" disabled={disabled} onClick={onClick} {...props}>
        {children}
      </button>
    );
  const block = (event: MouseEvent<HTMLButtonElement>) => event.preventDefault();
  return (
    <>
      <button
        type="button"
        {...tooltip.referenceProps({ ...props, onClick: reason ? block : onClick } as HTMLProps<Element>)}
        {...(reason ? { 'aria-disabled': true } : { disabled })}
      >
        {children}
      </button>
      {tooltip.tooltip}
    </>
  );
}
