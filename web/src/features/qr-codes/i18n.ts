import { dictionary } from '../../i18n/dictionary.ts';

/** Scan QR code and Generate QR code. English is complete and types the keys; Japanese and Marathi fall back to it key by key. */
export const qrCodesTexts = dictionary({
  en: {
    scan: {
      title: 'Scan QR code',
      camera: 'Camera',
      no_camera: 'Point your camera at the QR code, or pick an image of it.',
      pick_image: 'Pick an image of a QR code',
      nothing_found: 'No QR code found in this image.',
      error: 'Error',
      not_a_payment: 'This QR code is not a payment.',
      again: 'Scan Again',
      cancel: 'Cancel',
    },
    generate_qr: {
      title: 'Generate QR code',
      merchant: 'Merchant',
      merchant_id: 'Merchant ID',
      amount: 'Amount',
      currency: 'Currency',
      comment: 'Order / Sales / ID',
      create: 'Create A Transaction',
      scan_to_pay: 'Scan To Pay',
      qr_label: 'QR code of the payment',
      go: 'Go',
      cancel: 'Cancel / Clear Transaction',
      waiting: 'Waiting for the payment…',
      paid: 'Payment received: {{amount}}',
    },
  },
  ja: {},
  mr: {},
});
