import * as RadixMenu from '@radix-ui/react-dropdown-menu';
import { useEffect, useId, useRef, type ReactElement, type ReactNode, type RefAttributes } from 'react';

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
      <MenuList
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
      </MenuList>
    </RadixMenu.Root>
  );
}

/**
 * A menu of the caller's own entries (the account menu): a heading, links
 * (`MenuLink`) and a choice of one (`MenuChoice`), with MenuButton's keys.
 * `trigger` is the button's content; `openAtOnce` opens it on mount (a
 * click or key that came before the menu's code), with the first entry
 * focused when `openAtOnce` is 'keyboard', as Enter on the button does.
 */
export function Menu({
  trigger,
  triggerClassName,
  focusTrigger = false,
  openAtOnce,
  children,
}: {
  trigger: ReactNode;
  triggerClassName: string;
  /** The button takes the focus on mount (a stand-in that had it was replaced). */
  focusTrigger?: boolean;
  openAtOnce?: 'keyboard' | 'pointer' | undefined;
  children: ReactNode;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const firstFocused = useRef(false);
  useEffect(() => {
    if (focusTrigger && !openAtOnce) button.current?.focus();
  }, [focusTrigger, openAtOnce]);
  return (
    <RadixMenu.Root modal={false} defaultOpen={openAtOnce !== undefined}>
      <RadixMenu.Trigger ref={button} className={triggerClassName}>
        {trigger}
      </RadixMenu.Trigger>
      <MenuList
        ref={(content) => {
          // Radix focuses the first entry only when it saw the key itself; this key came before it was there.
          // After Radix's own focus on mount (the menu as a whole), in the next frame.
          if (!content || openAtOnce !== 'keyboard' || firstFocused.current) return;
          firstFocused.current = true;
          requestAnimationFrame(() => content.querySelector<HTMLElement>('[role^="menuitem"]')?.focus());
        }}
      >
        {children}
      </MenuList>
    </RadixMenu.Root>
  );
}

/** The open menu's list, as every menu of the app places and styles it: under its button's end edge. */
function MenuList(props: RadixMenu.DropdownMenuContentProps & RefAttributes<HTMLDivElement>) {
  return (
    <RadixMenu.Portal>
      <RadixMenu.Content className="menu-list" align="end" sideOffset={4} collisionPadding={8} {...props} />
    </RadixMenu.Portal>
  );
}

/** Words at the top of a menu, not an entry (the account menu's name and e-mail). */
export function MenuHeading({ children }: { children: ReactNode }) {
  return <RadixMenu.Label className="menu-heading">{children}</RadixMenu.Label>;
}

/** An entry that is a link: `children` is the one link element (a router link), which becomes the menu item. */
export function MenuLink({ children }: { children: ReactElement }) {
  return (
    <RadixMenu.Item asChild className="menu-item">
      {children}
    </RadixMenu.Item>
  );
}

interface MenuOption<Value extends string> {
  value: Value;
  label: ReactNode;
  /** The option's own language, when it is named in it. */
  lang?: string;
}

/** A choice of one (menuitemradio entries in a group named by `label`), the chosen one ticked; choosing closes the menu. */
export function MenuChoice<Value extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: ReactNode;
  value: Value;
  options: readonly MenuOption<Value>[];
  onChange: (value: Value) => void;
}) {
  const labelId = useId();
  return (
    <>
      <RadixMenu.Separator className="menu-separator" />
      <RadixMenu.Label id={labelId} className="menu-heading">
        {label}
      </RadixMenu.Label>
      <RadixMenu.RadioGroup
        aria-labelledby={labelId}
        value={value}
        onValueChange={(chosen) => {
          const option = options.find((each) => each.value === chosen);
          if (option) onChange(option.value);
        }}
      >
        {options.map((option) => (
          <RadixMenu.RadioItem
            key={option.value}
            value={option.value}
            lang={option.lang}
            className="menu-item menu-radio"
          >
            <span className="menu-tick" aria-hidden="true">
              <RadixMenu.ItemIndicator>✓</RadixMenu.ItemIndicator>
            </span>
            {option.label}
          </RadixMenu.RadioItem>
        ))}
      </RadixMenu.RadioGroup>
      <RadixMenu.Separator className="menu-separator" />
    </>
  );
}
