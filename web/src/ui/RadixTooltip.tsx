import * as Radix from '@radix-ui/react-tooltip';
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';

/**
 * The tooltip itself, on Radix's tooltip: on hover (after a short pause)
 * and on keyboard focus, gone on Escape or when the pointer or focus
 * leaves; screen readers hear it as the description of the focused
 * element. Its own chunk, which ui/Tooltip.tsx loads on the first hover or
 * focus. Taking over from the plain trigger at that moment, it opens at
 * once for the pointer still over it (`openNow`), and takes the focus the
 * plain trigger had (`focusNow`), which opens it as a focus does.
 */
export function RadixTooltip({
  text,
  children,
  openNow = false,
  focusNow = false,
}: {
  text: string;
  children: ReactNode;
  openNow?: boolean;
  focusNow?: boolean;
}) {
  const trigger = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focusNow) trigger.current?.focus();
    // Only when it takes over: later renders leave the focus where the user put it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    // A provider per tooltip: the shell stays free of it, and the few tooltips need no shared skip-delay.
    <Radix.Provider delayDuration={300}>
      <Radix.Root defaultOpen={openNow && !focusNow}>
        <Radix.Trigger asChild ref={trigger as RefObject<HTMLButtonElement | null>}>
          {children}
        </Radix.Trigger>
        <Radix.Portal>
          <Radix.Content className="tooltip" side="top" sideOffset={6} collisionPadding={8}>
            {text}
            <Radix.Arrow className="tooltip-arrow" />
          </Radix.Content>
        </Radix.Portal>
      </Radix.Root>
    </Radix.Provider>
  );
}
