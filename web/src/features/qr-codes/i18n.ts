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
  },
  ja: {},
  mr: {},
});
