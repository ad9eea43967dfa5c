import '../app/shared-chunk';
import { FloatingPortal, autoUpdate, flip, offset, shift, useDismiss, useFloating } from '@floating-ui/react';

interface FloatingTooltipProps {
  reference: Element | null;
  id: string;
  text: string;
  /** Escape or a press outside closed it. */
  onDismiss(byEscape: boolean): void;
}

/** An open tooltip, positioned by floating-ui above its control (`useTooltip` loads it on first opening). */
export default function FloatingTooltip({ reference, id, text, onDismiss }: FloatingTooltipProps) {
  const { refs, floatingStyles, context } = useFloating({
    open: true,
    onOpenChange: (open, _event, reason) => !open && onDismiss(reason === 'escape-key'),
    elements: { reference },
    placement: 'top',
    middleware: [offset(6), flip(), shift({ padding: 8 })],
    whileElementsMounted: autoUpdate,
  });
  // Its document listeners close the tooltip; the props it returns are for interactive floating elements.
  useDismiss(context);
  return (
    <FloatingPortal>
      <div ref={refs.setFloating} id={id} role="tooltip" tabIndex={-1} className="tooltip" style={floatingStyles}>
        {text}
      </div>
    </FloatingPortal>
  );
}
