import { act, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from './Dialog.tsx';
import { toast, Toasts } from './toasts.tsx';

function Opener({ dismissable, autoFocus = false }: { dismissable: boolean; autoFocus?: boolean }) {
  const [open, setOpen] = useState(false);
  const [blurred, setBlurred] = useState(0);
  const close = () => {
    setOpen(false);
  };
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setOpen(true);
        }}
      >
        Open
      </button>
      <output>{`blurred ${String(blurred)}`}</output>
      {open && (
        <Dialog
          title="Delete Contact"
          {...(dismissable ? { onClose: close } : {})}
          footer={
            <button type="button" onClick={close}>
              Yes, delete it!
            </button>
          }
        >
          <label>
            Note{' '}
            <input
              autoFocus={autoFocus}
              onBlur={() => {
                setBlurred((count) => count + 1);
              }}
            />
          </label>
        </Dialog>
      )}
    </>
  );
}

describe('Dialog', () => {
  it('makes the page behind inert but for the toasts, so a toast during the dialog is heard; all of it undone on close', async () => {
    const user = userEvent.setup();
    render(
      <>
        <Opener dismissable />
        <Toasts />
      </>,
    );
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    expect(opener.closest('[inert]')).not.toBeNull();
    // In the accessibility tree still (Radix's aria-hidden spares live regions), and not inert.
    const status = screen.getByRole('status');
    expect(status.closest('[inert]')).toBeNull();
    await act(async () => {
      toast('Copied');
      await Promise.resolve();
    });
    expect(status.textContent).toBe('Copied');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.querySelectorAll('[inert]')).toHaveLength(0);
    expect(document.activeElement).toBe(opener);
  });

  it('is labelled by its title, keeps Tab inside, closes on Escape and gives focus back', async () => {
    const user = userEvent.setup();
    render(<Opener dismissable />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Delete Contact' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Note'));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Yes, delete it!' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Yes, delete it!' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('a field that takes the focus on open keeps it, unblurred, and Escape still gives focus back', async () => {
    const user = userEvent.setup();
    render(<Opener dismissable autoFocus />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    expect(document.activeElement).toBe(screen.getByLabelText('Note'));
    expect(screen.getByText('blurred 0')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(document.activeElement).toBe(opener);
  });

  it('a static dialog ignores Escape and has no close button', async () => {
    const user = userEvent.setup();
    render(<Opener dismissable={false} />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Delete Contact' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Yes, delete it!' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a dialog whose way out is a button of its own (Skip) takes it on Escape, with no close button', async () => {
    const user = userEvent.setup();
    let skipped = 0;
    render(
      <Dialog
        title="Terms"
        onEscape={() => {
          skipped += 1;
        }}
        footer={<button type="button">Skip</button>}
      >
        <p>Read me</p>
      </Dialog>,
    );
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    await user.keyboard('{Escape}');
    expect(skipped).toBe(1);
  });

  it('hides the page behind from screen readers while it is open', async () => {
    const user = userEvent.setup();
    render(<Opener dismissable />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.queryByRole('button', { name: 'Open' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Open', hidden: true })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Open' })).toBeTruthy();
  });
});
