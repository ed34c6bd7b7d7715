import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Tooltip } from './Tooltip.tsx';

// A file of its own: the tooltip's chunk is fetched once per page, so these run before anything here has fetched it.
describe('Tooltip before its chunk is in', () => {
  it('renders the trigger alone, with no tooltip machinery, until someone points at it or focuses it', () => {
    render(
      <Tooltip text="Held for review">
        <span tabIndex={0}>Holds</span>
      </Tooltip>,
    );
    const trigger = screen.getByText('Holds');
    expect(trigger.getAttribute('aria-describedby')).toBeNull();
    expect(trigger.getAttribute('data-state')).toBeNull();
  });

  it('opens for a pointer still on the trigger when the tooltip arrives', async () => {
    const user = userEvent.setup();
    render(
      <Tooltip text="Held for review">
        <span tabIndex={0}>Holds</span>
      </Tooltip>,
    );
    await user.hover(screen.getByText('Holds'));
    expect((await screen.findByRole('tooltip', {}, { timeout: 2000 })).textContent).toBe('Held for review');
    await waitFor(() => {
      expect(screen.getByText('Holds').getAttribute('aria-describedby')).toBe(screen.getByRole('tooltip').id);
    });
  });
});
