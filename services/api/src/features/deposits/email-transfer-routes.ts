import {
  interacDepositRequest,
  interacDepositResponse,
  zelleDepositRequest,
  zelleDepositResponse,
} from '@peeks/contracts';
import { minorUnitsPerMajor } from '@peeks/ledger';
import type { LedgerOutcome } from '@peeks/ledger-store';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { queueEmail } from '@peeks/jobs';
import { presentOutcome, runLedgerCommand, sessionWalletOwner, transactionIdFor } from '../payments/index.ts';
import { requireSignIn, signedIn } from '../../plugins/sessions.ts';
import { quoteForCommand, quoteView, type StoredQuote } from '../pricing/index.ts';
import { newSecurityAnswer, RECIPIENT_NAME, type EmailTransferRecipients } from './email-transfer.ts';
import { depositView, senderOf, storeInstructions, type DepositInstructions } from './email-transfer-queries.ts';
import { instructionsEmail, languageOf } from './instructions-email.ts';

interface Transfer {
  method: 'interac' | 'zelle';
  amount: number;
  currency: 'USD' | 'CAD';
  securityQuestion: string | null;
  securityAnswer: string | null;
  quoteId: string | undefined;
}

/**
 * INTERAC EMT and ZELL PAY in the Deposit dialog: each makes a pending
 * deposit (EnterDeposit) with a reference memo, the platform recipient and,
 * for Interac, a security question and a generated answer, and e-mails the
 * instructions. Nothing is credited until a finance operator matches the
 * transfer and clears it. With an Idempotency-Key a retry gets the same
 * deposit, memo and answer, and no second e-mail.
 */
export const emailTransferRoutes: FastifyPluginAsyncZod<{ recipients: EmailTransferRecipients }> = (
  app,
  { recipients },
) => {
  app.addHook('onRequest', requireSignIn);

  async function enterDeposit(
    request: FastifyRequest,
    transfer: Transfer,
  ): Promise<{ instructions: DepositInstructions; outcome: LedgerOutcome; owner: string; quote: StoredQuote }> {
    const { userId } = signedIn(request);
    const owner = sessionWalletOwner(request);
    const txId = transactionIdFor(request, owner);
    const amount = transfer.amount * minorUnitsPerMajor[transfer.currency];
    // The coins the transfer buys when it clears, priced now: the quote the person saw, or the current price.
    const quote = await quoteForCommand(
      request,
      { from: transfer.currency, to: 'CON', amountIn: amount },
      transfer.quoteId,
      txId,
    );
    const now = app.clock();
    return app.db.transaction().execute(async (trx) => {
      const { row: instructions, created } = await storeInstructions(trx, {
        tx_id: txId,
        user_id: userId,
        method: transfer.method,
        recipient_name: RECIPIENT_NAME,
        recipient_email: recipients[transfer.method],
        security_question: transfer.securityQuestion,
        security_answer: transfer.securityAnswer,
        ...(await senderOf(trx, userId)),
        amount,
        currency: transfer.currency,
        rate_micros: quote.rate_micros,
        coin_estimate: quote.amount_out,
        created_at: now,
      });
      const outcome = await runLedgerCommand(
        request,
        owner,
        {
          type: 'EnterDeposit',
          txId,
          ownerId: owner,
          method: instructions.method,
          payment: { amount: instructions.amount, currency: instructions.currency },
          rateMicros: instructions.rate_micros,
          reference: instructions.reference,
          expiresAt: null,
          quoteId: quote.quote_id,
        },
        trx,
      );
      if (created)
        await queueEmail(
          trx,
          app.jobs,
          instructionsEmail(instructions, languageOf(request.headers['accept-language'])),
          now,
        );
      return { instructions, outcome, owner, quote };
    });
  }

  app.post(
    '/api/account/deposit-interac',
    {
      config: {
        operation: {
          operationId: 'depositByInterac',
          summary: 'Announce an Interac e-mail transfer',
          tag: 'deposits',
          errors: [404, 409, 422, 503],
          idempotent: true,
          example: { amount: 50, currency: 'CAD' },
        },
      },
      schema: { body: interacDepositRequest, response: { 200: interacDepositResponse } },
    },
    async (request) => {
      const { amount, currency, securityQuestion, quote_id } = request.body;
      const { instructions, outcome, owner, quote } = await enterDeposit(request, {
        method: 'interac',
        amount,
        currency,
        securityQuestion,
        securityAnswer: newSecurityAnswer(),
        quoteId: quote_id,
      });
      return {
        response: 'success' as const,
        answer: instructions.security_answer ?? '',
        forexRate: instructions.rate_micros,
        user: { userId: instructions.user_id },
        deposit: depositView(instructions, outcome.record.entryDate),
        transaction: await presentOutcome(app.db, owner, outcome),
        quote: quoteView(quote),
      };
    },
  );

  app.post(
    '/api/account/deposit-zell',
    {
      config: {
        operation: {
          operationId: 'depositByZelle',
          summary: 'Announce a Zelle transfer',
          tag: 'deposits',
          errors: [404, 409, 422, 503],
          idempotent: true,
        },
      },
      schema: { body: zelleDepositRequest, response: { 200: zelleDepositResponse } },
    },
    async (request) => {
      const { amount, currency, quote_id } = request.body;
      const { instructions, outcome, owner, quote } = await enterDeposit(request, {
        method: 'zelle',
        amount,
        currency,
        securityQuestion: null,
        securityAnswer: null,
        quoteId: quote_id,
      });
      return {
        response: 'success' as const,
        forexRate: instructions.rate_micros,
        memo: instructions.reference,
        zelleRecipient: { name: instructions.recipient_name, email: instructions.recipient_email },
        deposit: depositView(instructions, outcome.record.entryDate),
        transaction: await presentOutcome(app.db, owner, outcome),
        quote: quoteView(quote),
      };
    },
  );

  return Promise.resolve();
};
