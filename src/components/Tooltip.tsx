import {
  Suspense,
  lazy,
  useEffect,
  useId,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type FocusEvent,
  type HTMLProps,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';

// floating-ui, which positions the tooltip and closes it on Escape or a press outside, loads when a
// tooltip first opens: the list pages show these buttons on the first page.
const FloatingTooltip = lazy(() => import('./FloatingTooltip'));

/**
 * A tooltip positioned by floating-ui, shown on hover and on any focus (keyboard or pointer), as
 * floating-ui's useHover, useFocus, useDismiss and useRole had it.
 * A `reason` (why a control cannot be used) is also announced with its control through
 * `aria-describedby`, not only while the tooltip is open; a `tip` only names an icon button.
 */
export function useTooltip({ reason, tip }: { reason?: string; tip?: string }) {
  const [open, setOpen] = useState(false);
  const [reference, setReference] = useState<Element | null>(null);
  // Focus coming back (to the window, after Escape) does not reopen a tooltip closed while focused.
  const focusBlocked = useRef(false);
  const tooltipId = useId();

  // Native listeners: React's delegated mouseenter misses a pointer coming from a disabled element.
  useEffect(() => {
    if (!reference) return;
    const show = () => setOpen(true);
    const hide = () => {
      focusBlocked.current = false;
      setOpen(false);
    };
    const onWindowBlur = () => {
      if (!open && reference === document.activeElement) focusBlocked.current = true;
    };
    reference.addEventListener('mouseenter', show);
    reference.addEventListener('mouseleave', hide);
    window.addEventListener('blur', onWindowBlur);
    return () => {
      reference.removeEventListener('mouseenter', show);
      reference.removeEventListener('mouseleave', hide);
      window.removeEventListener('blur', onWindowBlur);
    };
  }, [reference, open]);

  const dismiss = (byEscape: boolean) => {
    if (byEscape) focusBlocked.current = true;
    setOpen(false);
  };
  const text = reason ?? tip;
  const described = reason && (
    <span id={tooltipId} className="visually-hidden">
      {reason}
    </span>
  );
  return {
    text,
    /** Props for the control: its ref, the focus and Escape handlers, and the tooltip's description. */
    referenceProps: (props: HTMLProps<Element> = {}): Record<string, unknown> => ({
      ...props,
      ref: setReference,
      'aria-describedby': reason || open ? tooltipId : undefined,
      onFocus: (event: FocusEvent<Element>) => {
        props.onFocus?.(event);
        if (!focusBlocked.current) setOpen(true);
      },
      onBlur: (event: FocusEvent<Element>) => {
        props.onBlur?.(event);
        focusBlocked.current = false;
        const leftThePage = !event.relatedTarget;
        // After the window's blur event, and focus may have moved into the tooltip.
        window.setTimeout(() => {
          const active = document.activeElement;
          if (leftThePage && active === reference) return;
          if (reference?.contains(active) || document.getElementById(tooltipId)?.contains(active)) return;
          setOpen(false);
        });
      },
      onKeyDown: (event: KeyboardEvent<Element>) => {
        if (open && event.key === 'Escape') {
          event.stopPropagation();
          dismiss(true);
        }
        props.onKeyDown?.(event);
      },
    }),
    tooltip: !text ? null : open ? (
      <Suspense fallback={described}>
        <FloatingTooltip reference={reference} id={tooltipId} text={text} onDismiss={dismiss} />
      </Suspense>
    ) : (
      described
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

/** A button with a tooltip: its disabled reason, or a tip. */
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
