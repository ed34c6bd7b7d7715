import * as RadixTooltip from '@radix-ui/react-tooltip';
import type { ReactNode } from 'react';

/**
 * A short explanation shown beside what it explains, on Radix's tooltip: on
 * hover (after a short pause) and on keyboard focus, gone on Escape or when
 * the pointer or focus leaves; screen readers hear it as the description
 * of the focused element. `children` is one focusable element (the trigger).
 */
export function Tooltip({ text, children }: { text: string; children: ReactNode }) {
  return (
    // A provider per tooltip: the shell stays free of it, and the few tooltips need no shared skip-delay.
    <RadixTooltip.Provider delayDuration={300}>
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content className="tooltip" side="top" sideOffset={6} collisionPadding={8}>
            {text}
            <RadixTooltip.Arrow className="tooltip-arrow" />
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
