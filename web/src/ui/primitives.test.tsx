import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from './Dialog.tsx';
import { Menu, MenuButton, MenuChoice, MenuHeading, MenuLink } from './Menu.tsx';
import { Tooltip } from './Tooltip.tsx';

/** A menu whose entries open a dialog, as Add Payment Method's do. */
function MenuThatOpensDialogs() {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <MenuButton
        label="Add"
        entries={['Card', 'Bank', 'Wire'].map((name) => ({
          id: name,
          label: name,
          onSelect: () => {
            setOpen(name);
          },
        }))}
      />
      {open && (
        <Dialog
          title={`Add ${open}`}
          onClose={() => {
            setOpen(null);
          }}
        >
          <input aria-label="Name" />
        </Dialog>
      )}
    </>
  );
}

describe('MenuButton', () => {
  it('a menu button whose arrow keys, Home and End move through the entries; Escape closes it back to the button', async () => {
    const user = userEvent.setup();
    render(<MenuThatOpensDialogs />);
    const button = screen.getByRole('button', { name: 'Add' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    act(() => {
      button.focus();
    });
    await user.keyboard('{ArrowDown}');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('menu').getAttribute('aria-labelledby')).toBe(button.id);
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Card' }));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Bank' }));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Wire' }));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Card' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it("an entry's dialog opens once the menu is closed, and gives the focus back to the menu button", async () => {
    const user = userEvent.setup();
    render(<MenuThatOpensDialogs />);
    const button = screen.getByRole('button', { name: 'Add' });
    act(() => {
      button.focus();
    });
    await user.keyboard('{Enter}{ArrowDown}{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Add Bank' });
    expect(screen.queryByRole('menu')).toBeNull();
    await waitFor(() => {
      expect(dialog.contains(document.activeElement)).toBe(true);
    });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => {
      expect(document.activeElement).toBe(button);
    });
  });
});

/** The account menu's shape: a heading, links, a choice of one, a last link. */
function AccountLikeMenu({ openAtOnce }: { openAtOnce?: 'keyboard' | 'pointer' }) {
  const [language, setLanguage] = useState<'en' | 'ja'>('en');
  return (
    <>
      <Menu trigger="Anne" triggerClassName="account-button" openAtOnce={openAtOnce}>
        <MenuHeading>anne@example.com</MenuHeading>
        <MenuLink>
          <a href="#wallet">Wallet</a>
        </MenuLink>
        <MenuLink>
          <a href="#profile">Profile</a>
        </MenuLink>
        <MenuChoice
          label="Language"
          value={language}
          options={[
            { value: 'en', label: 'English', lang: 'en' },
            { value: 'ja', label: '日本語', lang: 'ja' },
          ]}
          onChange={setLanguage}
        />
        <MenuLink>
          <a href="#sign-out">Sign Out</a>
        </MenuLink>
      </Menu>
      <output>{language}</output>
    </>
  );
}

describe('Menu', () => {
  it('a menu of links and a choice of one: arrows, Home and End move through all; Escape goes back to the button', async () => {
    const user = userEvent.setup();
    render(<AccountLikeMenu />);
    const button = screen.getByRole('button', { name: 'Anne' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    act(() => {
      button.focus();
    });
    await user.keyboard('{Enter}');
    const menu = screen.getByRole('menu');
    expect(menu.getAttribute('aria-labelledby')).toBe(button.id);
    // The heading is words, not an entry: the first entry is Wallet.
    expect(within(menu).getByText('anne@example.com').getAttribute('role')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Wallet' }));
    expect(screen.getByRole('menuitem', { name: 'Wallet' }).getAttribute('href')).toBe('#wallet');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    const english = screen.getByRole('menuitemradio', { name: 'English' });
    expect(document.activeElement).toBe(english);
    expect(english.getAttribute('aria-checked')).toBe('true');
    expect(english.getAttribute('lang')).toBe('en');
    expect(screen.getByRole('menuitemradio', { name: '日本語' }).getAttribute('aria-checked')).toBe('false');
    expect(screen.getByRole('group', { name: 'Language' }).contains(english)).toBe(true);
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Sign Out' }));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Wallet' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('choosing a language from the keyboard changes it, closes the menu and gives the focus back', async () => {
    const user = userEvent.setup();
    render(<AccountLikeMenu />);
    const button = screen.getByRole('button', { name: 'Anne' });
    act(() => {
      button.focus();
    });
    await user.keyboard('{ArrowDown}');
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitemradio', { name: '日本語' }));
    await user.keyboard('{Enter}');
    expect(screen.getByRole('status').textContent).toBe('ja');
    expect(screen.queryByRole('menu')).toBeNull();
    await waitFor(() => {
      expect(document.activeElement).toBe(button);
    });
  });

  it('opened at once by a key that came before it (openAtOnce), the first entry has the focus', async () => {
    render(<AccountLikeMenu openAtOnce="keyboard" />);
    expect(screen.getByRole('button', { name: 'Anne' }).getAttribute('aria-expanded')).toBe('true');
    await waitFor(() => {
      expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Wallet' }));
    });
  });
});

describe('Tooltip', () => {
  it('shows on keyboard focus as the description of what it explains, and Escape hides it', async () => {
    const user = userEvent.setup();
    render(
      <Tooltip text="Held for review">
        <span tabIndex={0}>Holds</span>
      </Tooltip>,
    );
    expect(screen.queryByRole('tooltip')).toBeNull();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByText('Holds'));
    // The first focus fetches the tooltip, whose trigger takes over, focus and all.
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip.textContent).toBe('Held for review');
    const trigger = screen.getByText('Holds');
    expect(document.activeElement).toBe(trigger);
    expect(trigger.getAttribute('aria-describedby')).toBe(tooltip.id);
    await user.keyboard('{Escape}');
    await waitFor(() => {
      expect(screen.queryByRole('tooltip')).toBeNull();
    });
  });

  // Leaving is judged by where the pointer goes (a grace area towards the tooltip), which needs a layout: jsdom has none.
  it('shows on hover', async () => {
    const user = userEvent.setup();
    render(
      <Tooltip text="Held for review">
        <span tabIndex={0}>Holds</span>
      </Tooltip>,
    );
    await user.hover(screen.getByText('Holds'));
    expect((await screen.findByRole('tooltip', {}, { timeout: 2000 })).textContent).toBe('Held for review');
  });
});
