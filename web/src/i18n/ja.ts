import type { PartialTranslation } from './en.ts';

/** Japanese, started (spec §9: minimal). Missing keys fall back to English. */
export const ja: PartialTranslation = {
  app: { name: 'Peeks Wallet', loading: '読み込み中…' },
  nav: {
    my_account: 'マイアカウント',
    add_funds: '入金',
    log_in: 'ログイン',
    sign_up: '新規登録',
    wallet: 'ウォレット',
    profile: 'プロフィール',
    agreement: '規約',
    webhook: 'Webhook',
    sign_out: 'ログアウト',
    dashboard: 'ダッシュボード',
    transactions: '取引',
    contacts: '連絡先',
    payment_methods: '支払い方法',
    fund_wallet: 'ウォレットに入金',
    edit_profile: 'プロフィール編集',
    settings: '設定',
    support: 'サポート',
    switch_merchant: '加盟店の切り替え',
  },
  footer: { copyright: '© {{year}} Peeks Wallet. All rights reserved.', terms: '利用規約' },
  coming_soon: { title: '{{screen}}：準備中', body: 'この画面はまだありません。今後のリリースで追加されます。', back: 'ダッシュボードに戻る' },
  login: { title: 'アカウントへのアクセス', username: 'メールアドレス', password: 'パスワード', submit: 'ログイン', forgot: 'パスワードをお忘れですか？', sign_up: '新規登録' },
  recovery: { title: 'パスワードの再設定', submit: '送信', send_code: 'コードを送信', next: '次へ', save: 'パスワードを保存' },
  wallet: {
    title: 'ウォレット',
    dashboard_title: 'ダッシュボード',
    tiles: { available: '利用可能残高', hold: '保留残高', total: '合計残高', add_funds: '入金', trade: 'トレード', withdraw: '出金' },
    table: { balance: '残高', holds: '保留', available: '利用可能', coin: 'コイン', impressions: 'インプレッション', cash: '現金（{{currency}}）' },
    coin_breakdown: { title: 'コインの内訳', empty: 'コインの内訳はありません' },
  },
  errors: { something_went_wrong: '問題が発生しました', network: 'サービスに接続できませんでした。接続を確認して、もう一度お試しください。' },
};
