import { dictionary } from '../../i18n/dictionary.ts';

/** The wallet and its tiles. English is complete and types the keys; Japanese and Marathi fall back to it key by key. */
export const walletTexts = dictionary({
  en: {
    wallet: {
      title: 'Wallet',
      dashboard_title: 'Dashboard',
      failed: 'Your balance could not be loaded.',
      retry: 'Try Again',
      live_on: 'Live',
      live_off: 'Connecting…',
      hold_help:
        'Holds are placed on newly received tips for processing and review. After the hold time the amount becomes withdrawable.',
      open_coin_breakdown: 'Coin Breakdown of {{amount}}',
      tiles: {
        available: 'Available Balance',
        hold: 'Hold Balance',
        total: 'Total Balance',
        add_funds: 'Add Funds',
        trade: 'Trade',
        send_funds: 'Send Funds',
        withdraw: 'Withdraw Funds',
        withdraw_soon: 'Transfer to a Visa debit card: coming soon',
      },
      table: {
        caption: 'Balances by currency',
        currency: 'Currency',
        balance: 'Balance',
        holds: 'Holds',
        available: 'Available',
        coin: 'Coin',
        impressions: 'Impressions',
        cash: 'Cash ({{currency}})',
      },
      card: {
        label: 'Your wallet',
        available: 'Available Balance',
        coins: 'Total Coin Balance',
        shortcuts: 'Wallet shortcuts',
        add_funds: 'Add Funds',
        transfer_funds: 'Transfer Funds',
        pay_now: 'Pay Now',
        latest_transaction: 'View Latest Transaction',
        view_contacts: 'View Contacts',
        my_account: 'My Account',
        create_transaction: 'Create A Transaction',
      },
      coin_breakdown: {
        title: 'Coin Breakdown',
        empty: 'No coin breakdowns',
        processed: 'Total processed coins as of {{date}}: {{count}}',
        total: 'Total balance: {{amount}}',
        serial: 'Coin serial',
        value: 'Value',
        pages: 'Coin breakdown pages',
      },
    },
  },
  ja: {
    wallet: {
      title: 'ウォレット',
      dashboard_title: 'ダッシュボード',
      tiles: {
        available: '利用可能残高',
        hold: '保留残高',
        total: '合計残高',
        add_funds: '入金',
        trade: 'トレード',
        withdraw: '出金',
      },
      table: {
        balance: '残高',
        holds: '保留',
        available: '利用可能',
        coin: 'コイン',
        impressions: 'インプレッション',
        cash: '現金（{{currency}}）',
      },
      coin_breakdown: { title: 'コインの内訳', empty: 'コインの内訳はありません' },
    },
  },
  mr: {
    wallet: {
      title: 'वॉलेट',
      dashboard_title: 'डॅशबोर्ड',
      tiles: {
        available: 'उपलब्ध शिल्लक',
        hold: 'रोखलेली शिल्लक',
        total: 'एकूण शिल्लक',
        add_funds: 'निधी जोडा',
        withdraw: 'निधी काढा',
      },
      table: { balance: 'शिल्लक', available: 'उपलब्ध', coin: 'नाणे' },
      coin_breakdown: { title: 'नाण्यांचे तपशील' },
    },
  },
});
