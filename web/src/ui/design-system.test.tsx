import type { ColumnDef } from '@tanstack/react-table';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Badge, StatusPill, statusTone } from './Badge.tsx';
import { Button } from './Button.tsx';
import { Card, StatTile } from './Card.tsx';
import { DataTable } from './DataTable.tsx';
import { EmptyState } from './EmptyState.tsx';
import { Input, Select } from './fields.tsx';
import { Money } from './Money.tsx';
import { PageHeader } from './PageHeader.tsx';
import { Skeleton } from './Skeleton.tsx';
import { Tabs } from './Tabs.tsx';
import { ledgerTypeWord, stateWord, transactionTypeWord } from './words.ts';
import { i18n } from '../i18n/i18n.ts';

describe('the design system', () => {
  it('Button: a plain button by default, disabled and busy while its call runs', () => {
    render(
      <>
        <Button>Close</Button>
        <Button variant="primary" busy>
          Send
        </Button>
      </>,
    );
    expect(screen.getByRole('button', { name: 'Close' })).toHaveProperty('type', 'button');
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toHaveProperty('disabled', true);
    expect(send.getAttribute('aria-busy')).toBe('true');
    expect(send.className).toBe('button primary');
  });

  it('Input and Select: labelled, and their error named by aria-describedby and announced', () => {
    render(
      <>
        <Input label="Amount" hint="In coins" error="Please enter Amount" />
        <Select label="Type" options={[{ value: '', label: 'All' }]} />
      </>,
    );
    const amount = screen.getByLabelText('Amount');
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    const described = (amount.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id));
    expect(described.map((element) => element?.textContent)).toEqual(['In coins', 'Please enter Amount']);
    expect(screen.getByRole('alert').textContent).toBe('Please enter Amount');
    const type = screen.getByLabelText('Type');
    expect(type.getAttribute('aria-invalid')).toBe('false');
    expect(type.getAttribute('aria-describedby')).toBeNull();
  });

  it('Tabs: one tab stop, arrows, Home and End move and select, the panel is labelled by its tab', async () => {
    function Harness() {
      const [selected, setSelected] = useState('transactions');
      return (
        <Tabs
          label="History"
          selected={selected}
          onSelect={setSelected}
          tabs={[
            { id: 'transactions', label: 'Transactions', panel: <p>the transactions</p> },
            { id: 'ledger', label: 'Ledger', panel: <p>the ledger</p> },
            { id: 'holds', label: 'Holds', panel: <p>the holds</p> },
          ]}
        />
      );
    }
    render(
      <>
        <button type="button">Before</button>
        <Harness />
      </>,
    );
    const user = userEvent.setup();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.getAttribute('aria-selected'))).toEqual(['true', 'false', 'false']);
    expect(screen.getByRole('tabpanel', { name: 'Transactions' }).textContent).toBe('the transactions');
    // One tab stop: Tab from before lands on the selected tab, the next Tab on its panel.
    await user.click(screen.getByRole('button', { name: 'Before' }));
    await user.tab();
    expect(document.activeElement).toBe(tabs[0]);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('tabpanel', { name: 'Transactions' }));
    await user.click(tabs[0]!);
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Ledger' }));
    expect(screen.getByRole('tab', { name: 'Ledger' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Ledger' }).textContent).toBe('the ledger');
    await user.keyboard('{End}');
    expect(screen.getByRole('tabpanel', { name: 'Holds' })).toBeTruthy();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tabpanel', { name: 'Transactions' })).toBeTruthy();
    await user.keyboard('{ArrowLeft}{Home}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Transactions' }));
  });

  it('DataTable: a captioned table whose cells name their column, or the empty state', () => {
    interface Row {
      id: string;
      type: string;
      amount: number;
    }
    const columns: ColumnDef<Row>[] = [
      { accessorKey: 'type', header: 'Type' },
      {
        id: 'amount',
        header: 'Amount',
        cell: ({ row }) => <Money minor={row.original.amount} currency="CON" signed />,
      },
    ];
    const { rerender } = render(
      <DataTable
        caption="Transactions"
        columns={columns}
        rows={[
          { id: '1', type: 'Send', amount: -500 },
          { id: '2', type: 'Receive', amount: 250 },
        ]}
        rowKey={(row) => row.id}
        empty="No records found"
      />,
    );
    const table = screen.getByRole('table', { name: 'Transactions' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Type', 'Amount']);
    const cells = within(table).getAllByRole('cell');
    expect(cells.map((cell) => `${cell.dataset.label ?? ''}=${cell.textContent}`)).toEqual([
      'Type=Send',
      'Amount=−5.00 Coins',
      'Type=Receive',
      'Amount=+2.50 Coins',
    ]);
    rerender(
      <DataTable
        caption="Transactions"
        columns={columns}
        rows={[]}
        rowKey={(row) => row.id}
        empty="No records found"
      />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('No records found')).toBeTruthy();
  });

  it('StatusPill: the words, in the tone of what they mean', () => {
    expect(['entered', 'processed', 'failed', 'something else'].map(statusTone)).toEqual([
      'warning',
      'success',
      'danger',
      'neutral',
    ]);
    render(
      <>
        <StatusPill status="processed" />
        <Badge tone="info">Live</Badge>
      </>,
    );
    expect(screen.getByText('processed').className).toBe('badge badge-success');
    expect(screen.getByText('Live').className).toBe('badge badge-info');
  });

  it("StatusPill, ledger and transaction types: the codes the API sends, in the reader's words", async () => {
    try {
      await i18n.changeLanguage('ja');
      render(
        <>
          <StatusPill status="completed" />
          <StatusPill status="pending" />
          <StatusPill status="processed" />
        </>,
      );
      expect(screen.getByText('完了').className).toBe('badge badge-success');
      expect(screen.getByText('保留中').className).toBe('badge badge-warning');
      // A state no dictionary knows yet is shown as sent.
      expect(screen.getByText('processed')).toBeTruthy();
      expect([ledgerTypeWord('P2P_RCVD'), ledgerTypeWord('PURCHASE_COINS'), ledgerTypeWord('WITHDRAW')]).toEqual([
        '個人間の受け取り',
        'コイン購入',
        '出金',
      ]);
      expect(transactionTypeWord('withdraw')).toBe('出金');
      await i18n.changeLanguage('en');
      expect([ledgerTypeWord('P2P_RCVD'), ledgerTypeWord('NEW_KIND'), stateWord('completed')]).toEqual([
        'P2P Received',
        'NEW_KIND',
        'completed',
      ]);
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('Money: cash with its symbol and code, a fee of nothing as $0.00', () => {
    render(
      <>
        <Money minor={0} currency="USD" />
        <Money minor={123450} currency="CON" />
      </>,
    );
    expect(screen.getByText('$0.00 USD')).toBeTruthy();
    expect(screen.getByText('1,234.50 Coins')).toBeTruthy();
  });

  it('Card, StatTile, PageHeader, Skeleton and EmptyState: named regions, one h1, a polite loading status', () => {
    render(
      <>
        <PageHeader
          title="Transactions"
          description="Everything that moved your money"
          actions={<Button>Export CSV</Button>}
        />
        <Card title="Balances">
          <StatTile label="Available" value="12.00 Coins" note="of which 2.00 on hold" />
        </Card>
        <Skeleton lines={2} />
        <EmptyState title="No records found" action={<Button>Add Funds</Button>} />
      </>,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Transactions');
    expect(within(screen.getByRole('region', { name: 'Balances' })).getByText('of which 2.00 on hold')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.getByRole('button', { name: 'Add Funds' })).toBeTruthy();
  });
});
