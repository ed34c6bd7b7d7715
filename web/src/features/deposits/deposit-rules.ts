import { formatBitcoin } from '@peeks/contracts';

/** The spec's 20 coins per currency unit (§9), before the exchange rate. */
const COINS_PER_UNIT = 20;
const RATE_SCALE = 1_000_000;

/**
 * The coin equivalent the Interac, Zelle and bitcoin forms show (spec §5):
 * floor(20 × amount × rate) whole coins, `amount` in whole currency units as
 * typed and the rate in millionths (780000 is 0.78), in integers so that
 * 0.78 is never a float. The same figure the server credits (coinsForCash).
 */
export function coinEquivalent(amountUnits: number, rateMicros: number): number {
  if (!Number.isSafeInteger(amountUnits) || amountUnits <= 0) return 0;
  return Number((BigInt(COINS_PER_UNIT) * BigInt(amountUnits) * BigInt(rateMicros)) / BigInt(RATE_SCALE));
}

/** 'N Coin' or 'N Coins' (spec §5), N whole coins. */
export function coinsLabel(wholeCoins: number): string {
  return `${String(wholeCoins)} ${wholeCoins === 1 ? 'Coin' : 'Coins'}`;
}

/** A typed whole amount ("25") as a number, or 0 while it is not one: the coin equivalent of nothing is 0. */
export function typedWholeUnits(typed: string): number {
  return /^\d{1,5}$/.test(typed.trim()) ? Number(typed.trim()) : 0;
}

/**
 * The BIP21 URI a wallet app reads from the QR code (step 2 of Bitcoin):
 * `bitcoin:<address>?amount=<BTC>`, the amount in bitcoin with 8 places, as
 * the server's `qrCode` has it.
 */
export function bitcoinUri(address: string, sats: number): string {
  return `bitcoin:${address}?amount=${formatBitcoin(sats)}`;
}

/** What a BIP21 URI asks for: its address and the satoshis of its amount; null when it is not one. */
export function readBitcoinUri(uri: string): { address: string; sats: number } | null {
  const match = /^bitcoin:([a-zA-Z0-9]{14,90})(?:\?(.*))?$/i.exec(uri.trim());
  if (!match?.[1]) return null;
  const amount = new URLSearchParams(match[2] ?? '').get('amount');
  if (amount === null) return { address: match[1], sats: 0 };
  const decimal = /^(\d{1,8})(?:\.(\d{1,8}))?$/.exec(amount);
  if (!decimal?.[1]) return null;
  return { address: match[1], sats: Number(decimal[1]) * 100_000_000 + Number((decimal[2] ?? '').padEnd(8, '0')) };
}

/** Time left until `expiresAt`: whole hours, minutes and seconds, and whether it has run out. */
export interface TimeLeft {
  hours: number;
  minutes: number;
  seconds: number;
  expired: boolean;
}

export function timeLeft(expiresAt: Date, now: Date): TimeLeft {
  const left = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
  return {
    hours: Math.floor(left / 3600),
    minutes: Math.floor((left % 3600) / 60),
    seconds: left % 60,
    expired: left === 0,
  };
}

/** "23:59:07" for the countdown beside the address; "00:00:00" once expired. */
export function countdownText(left: TimeLeft): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(left.hours)}:${two(left.minutes)}:${two(left.seconds)}`;
}
