import {
  bitcoinInfoResponse,
  depositCoinsResponse,
  depositListResponse,
  interacDepositResponse,
  zelleDepositResponse,
  BITCOIN_PAYMENT_METHOD,
  type BitcoinQuote,
} from '@peeks/contracts';
import { callApi } from '../../lib/api.ts';

/** INTERAC EMT: a pending deposit with its memo, recipient and security answer; one key per attempt. */
export const startInterac = (amount: number, idempotencyKey: string) =>
  callApi('/account/deposit-interac', interacDepositResponse, { body: { amount }, idempotencyKey });

/** ZELL PAY: a pending deposit with its memo and recipient. */
export const startZelle = (amount: number, idempotencyKey: string) =>
  callApi('/account/deposit-zell', zelleDepositResponse, { body: { amount }, idempotencyKey });

/** Bitcoin step 1: the rate, the bitcoin due and the coins, signed for 15 minutes. */
export const quoteBitcoin = (amount: number, signal?: AbortSignal) =>
  callApi('/account/get-bitcoin-info', bitcoinInfoResponse, { body: { amount }, ...(signal ? { signal } : {}) });

/** Bitcoin step 2: the quote taken back, a fresh address to pay. */
export const startBitcoin = (quote: BitcoinQuote, idempotencyKey: string) =>
  callApi('/account/deposit-coins', depositCoinsResponse, {
    body: {
      peeksCoins: quote.peeksCoins,
      BTCtoUSD: quote.BTCtoUSD,
      totalBitcoinAmount: quote.totalBitcoinAmount,
      USDAmount: quote.USDAmount,
      hash: quote.hash,
      paymentMethodId: BITCOIN_PAYMENT_METHOD,
    },
    idempotencyKey,
  });

/** The pending-deposits view's list. */
export const listDeposits = async (signal?: AbortSignal) =>
  (await callApi('/account/deposits', depositListResponse, signal ? { signal } : {})).deposits;
