import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast, Toasts, TOAST_MS } from './toasts.tsx';

const region = () => screen.findByRole('region', { name: 'Notifications (F8)' });

describe('toasts', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says each toast once, in the live region there from the start, and shows it once in the toasts region', async () => {
    render(<Toasts />);
    const status = screen.getByRole('status');
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(status.textContent).toBe('');
    // The library is not loaded before the first toast.
    expect(screen.queryByRole('region')).toBeNull();

    await act(async () => {
      toast('Password Updated successfully.');
      await Promise.resolve();
    });
    // Said at once, while the library loads.
    expect(status.textContent).toBe('Password Updated successfully.');
    const shown = await within(await region()).findByText('Password Updated successfully.');
    expect(shown.closest('li')?.className).toBe('toast toast-success');
    // Twice in the page: said (hidden) and shown. The library's own spoken copy is not in the page.
    expect(screen.getAllByText(/Password Updated successfully\./)).toHaveLength(2);
    expect(screen.getAllByRole('status')).toEqual([status]);

    await act(async () => {
      toast('Something went wrong', 'error');
      await Promise.resolve();
    });
    expect(status.textContent).toBe('Password Updated successfully.Something went wrong');
    expect((await within(await region()).findByText('Something went wrong')).closest('li')?.className).toBe(
      'toast toast-error',
    );
  });

  it('Dismiss and Escape close a toast, and F8 takes the focus to the toasts', async () => {
    const user = userEvent.setup();
    render(
      <>
        <button type="button">Save</button>
        <Toasts />
      </>,
    );
    act(() => {
      toast('Profile Updated successfully.');
      toast('Webhook created successfully.');
    });
    const list = await region();
    await within(list).findByText('Webhook created successfully.');
    await user.click(within(list).getAllByRole('button', { name: 'Dismiss' })[0]!);
    await waitFor(() => {
      expect(screen.queryByText('Profile Updated successfully.')).toBeNull();
    });
    expect(screen.getByRole('status').textContent).toBe('Webhook created successfully.');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });
    expect(document.activeElement?.tagName).toBe('OL');
    expect(list.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => {
      expect(screen.queryByText('Webhook created successfully.')).toBeNull();
    });
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('goes after the toast interval (spec §9), and waits while the pointer is on it', async () => {
    // The clock too: the library counts the time left from it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    render(<Toasts />);
    act(() => {
      toast('Address deleted successfully.');
    });
    await act(async () => {
      await import('./ToastList.tsx');
    });
    const list = screen.getByRole('region', { name: 'Notifications (F8)' });
    const shown = within(list).getByText('Address deleted successfully.');
    // The pointer on the toasts pauses their time.
    fireEvent.pointerMove(shown);
    act(() => {
      vi.advanceTimersByTime(TOAST_MS * 2);
    });
    expect(screen.getAllByText('Address deleted successfully.')).toHaveLength(2);
    // Away again, it goes once its time is up.
    fireEvent.pointerLeave(list);
    act(() => {
      vi.advanceTimersByTime(TOAST_MS - 1);
    });
    expect(screen.getAllByText('Address deleted successfully.')).toHaveLength(2);
    await act(async () => {
      vi.advanceTimersByTime(1);
      await Promise.resolve();
    });
    // Gone from the live region too.
    expect(screen.queryByText('Address deleted successfully.')).toBeNull();
  });
});
