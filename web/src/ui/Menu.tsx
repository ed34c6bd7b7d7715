import * as RadixMenu from '@radix-ui/react-dropdown-menu';
import { useRef, type ReactNode } from 'react';

export interface MenuEntry {
  id: string;
  label: ReactNode;
  onSelect: () => void;
}

/**
 * A menu button (WAI-ARIA menu pattern) on Radix's dropdown menu: Enter,
 * Space or the arrow keys open it, the arrow keys, Home, End and a typed
 * letter move through its entries, Escape or a click elsewhere closes it,
 * and the focus goes back to the button. An entry's action runs once the
 * menu has closed and the focus is back on the button, so a dialog it
 * opens gives the focus back there in turn.
 */
export function MenuButton({
  label,
  entries,
  className = 'button',
}: {
  label: ReactNode;
  entries: readonly MenuEntry[];
  className?: string;
}) {
  const trigger = useRef<HTMLButtonElement>(null);
  const chosen = useRef<(() => void) | null>(null);
  return (
    // Not modal: the page behind stays as it is (no aria-hidden over focusable content); the menu still keeps
    // the focus, and Escape, Tab or a click elsewhere closes it.
    <RadixMenu.Root modal={false}>
      <RadixMenu.Trigger ref={trigger} className={className}>
        {label}
      </RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content
          className="menu-list"
          align="end"
          sideOffset={4}
          collisionPadding={8}
          onCloseAutoFocus={(event) => {
            const action = chosen.current;
            chosen.current = null;
            if (!action) return;
            event.preventDefault();
            trigger.current?.focus();
            action();
          }}
        >
          {entries.map((entry) => (
            <RadixMenu.Item
              key={entry.id}
              className="menu-item"
              onSelect={() => {
                chosen.current = entry.onSelect;
              }}
            >
              {entry.label}
            </RadixMenu.Item>
          ))}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}
