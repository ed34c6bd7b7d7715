import { renderEmail } from '@peeks/jobs';
import { describe, expect, it } from 'vitest';
import type { DepositInstructions } from './email-transfer-queries.ts';
import { instructionsEmail, languageOf } from './instructions-email.ts';

const interac: DepositInstructions = {
  tx_id: 'tx_1',
  user_id: 1,
  method: 'interac',
  reference: 'PKS-ABCD-EFGH',
  recipient_name: 'Peeks Wallet',
  recipient_email: 'etransfer@deposits.example',
  security_question: 'What is the name of this wallet?',
  security_answer: 'K7M2P9QX',
  sender_name: 'Ann Lee',
  sender_email: 'ann@example.com',
  amount: 1_234_00,
  currency: 'CAD',
  rate_micros: 780_000,
  coin_estimate: 19_250_00,
  created_at: new Date('2030-01-01T00:00:00Z'),
};

const textOf = (email: ReturnType<typeof instructionsEmail>) =>
  renderEmail(email.subject, email.payload).replaceAll('\u00a0', ' ');

describe('the deposit instructions e-mail', () => {
  it('names the network and states dollars and whole coins, never codes or minor units', () => {
    const text = textOf(instructionsEmail(interac, 'en'));
    expect(text).toContain('Your Interac e-Transfer deposit instructions (PKS-ABCD-EFGH)');
    expect(text).toContain('Send with: Interac e-Transfer');
    expect(text).toContain('Amount: CAD 1,234.00');
    expect(text).toContain('Coins you receive: 19,250 Coins');
    expect(text).not.toMatch(/interac\b|123400|1925000|Labels/);
    expect(textOf(instructionsEmail({ ...interac, method: 'zelle', currency: 'USD' }, 'en'))).toContain(
      'Send with: Zelle',
    );
  });

  it("is written in the person's language, the network keeping its name", () => {
    const japanese = textOf(instructionsEmail(interac, 'ja'));
    expect(japanese).toContain('Interac e-Transferでの入金手順（PKS-ABCD-EFGH）');
    expect(japanese).toContain('送金方法: Interac e-Transfer');
    expect(japanese).toContain('受け取るコイン: 19,250 コイン');
    expect(japanese).toContain('秘密の答え: K7M2P9QX');
    const marathi = textOf(instructionsEmail(interac, 'mr'));
    expect(marathi).toContain('पाठवण्याची पद्धत: Interac e-Transfer');
    expect(marathi).toContain('सुरक्षा उत्तर: K7M2P9QX');
  });

  it("takes the first offered language of the browser's Accept-Language, by weight", () => {
    expect(languageOf(undefined)).toBe('en');
    expect(languageOf('ja-JP,ja;q=0.9,en;q=0.8')).toBe('ja');
    expect(languageOf('fr-CA, mr;q=0.5, en;q=0.7')).toBe('en');
    expect(languageOf('de, mr-IN;q=0.4')).toBe('mr');
    expect(languageOf('ja;q=0, en')).toBe('en');
    expect(languageOf('*')).toBe('en');
  });
});
