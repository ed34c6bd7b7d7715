import { errorCatalogue, errorCodes } from './error-codes.ts';
import { say } from './fields.ts';

/**
 * The texts of the forms' rules and of their success toasts, by area, kept
 * apart from the schemas that use them (accounts.ts, webhooks.ts...): the
 * web's dictionaries name these texts in its first load, and importing them
 * from a schema's module would build every schema of that module, and of
 * the modules it imports, before the first screen (issue 36). The schemas
 * stay one per route and form, in their own modules.
 */

/** The youngest a person may register at. */
export const MINIMUM_AGE = 18;

export const registrationMessages = {
  brandWord: 'Username must not contain the word Peeks',
  passwordMix: 'Please enter Password with mixed case of letters & numbers',
  passwordFirst: 'Please enter Password first',
  passwordsDiffer: 'Password and Confirm password do not match, please try again.',
  tooYoung: `You must be at least ${MINIMUM_AGE} years old to register`,
  terms: 'Please accept terms and conditions',
  countryFirst: 'Please select country first',
  postalCode: 'Please enter valid Postal/Zip Code',
} as const;

export const addressMessages = {
  added: 'New Address added successfully.',
  updated: 'Address Updated successfully.',
  deleted: 'Address deleted successfully.',
  postalCode: 'Please enter valid Postal/Zip Code',
  countryFirst: 'Please select country first',
} as const;

export const agreementMessages = {
  /** Spec §5 "Agreement": accepting requires the checkbox. */
  checkbox: 'Please accept terms and conditions',
} as const;

export const checkoutMessages = {
  cartEmpty: say.enter('Cart'),
  cartTooLong: 'A cart has at most 100 lines',
  totalDiffers: 'Total must equal the sum of the cart prices',
  expiry: say.valid('Expiry'),
} as const;

/** The contact form's own texts (§5, variant A); the duplicate's (23201) is in the catalogue. */
export const contactMessages = {
  phoneMissing: 'Please enter Phone Number',
  phoneInvalid: 'Please enter valid Phone Number',
  // Verbatim from the spec, missing space and all: the form shows this exact text.
  phoneTooLong: 'Sorry,11 digit Phone Number accepted only',
  emailsDiffer: 'Email and Confirm Email do not match, please try again.',
  province: 'Please enter Province/State',
  deleted: 'Your contact has been deleted.',
} as const;

/**
 * The Security tab's PIN and security questions (spec §2 "Security tab":
 * Change Pin, Security Questions, choose 2). The spec gives no texts for
 * them, so these follow its patterns (§5).
 */
export const credentialMessages = {
  pinRequired: 'Please enter PIN',
  pinFormat: 'PIN must be 4 to 6 digits',
  oldPinRequired: 'Please enter Old PIN',
  newPinRequired: 'Please enter New PIN',
  confirmPinRequired: 'Please enter Confirm New PIN',
  pinsDiffer: 'New PIN and Confirm New PIN do not match, please try again.',
  pinSame: 'Current PIN and New PIN are same, Please try again',
  passwordRequired: 'Please enter Password',
  questionRequired: 'Please select Security Question',
  questionsSame: 'Please choose two different questions',
  answerRequired: 'Please enter Answer',
  pinSet: 'PIN set successfully.',
  pinUpdated: 'PIN Updated successfully.',
  pinVerified: 'PIN verified successfully.',
  questionsSaved: 'Security Questions saved successfully.',
} as const;

export const paymentMethodMessages = {
  cardNumber: 'Please enter valid Card Number',
  expiryYear: 'Please enter valid Expiry Year',
  notSupported: errorCatalogue[errorCodes.paymentMethodNotSupported],
  postalCode: 'Please enter valid Postal/Zip Code',
  countryFirst: 'Please select country first',
  selectMethod: 'Please select Payment Method',
  deposited: 'Fund deposit successfully',
} as const;

export const changePasswordMessages = {
  oldRequired: 'Please enter Old password',
  newRequired: 'Please enter New password',
  same: 'Current Password and New Password are same, Please try again',
  confirmRequired: 'Please enter Confirm New password',
  confirmDiffers: 'New password and Confirm New password do not match, please try again.',
  updated: 'Password Updated successfully.',
} as const;

export const profileMessages = {
  updated: 'Profile Updated successfully.',
} as const;

/** Forgot password (spec §2 and §5): the texts the five steps show. */
export const recoveryMessages = {
  usernameRequired: 'Username is required',
  codeRequired: 'Recovery Code is Required',
  passwordRequired: 'Password is required',
  passwordsDiffer: 'Passwords do not match',
  codeSentTo: 'Your code will be sent to',
  passwordChanged: 'Your Password has been changed successfully!',
} as const;

export const uploadMessages = {
  fileRequired: say.select('File'),
  avatarNotJpeg: 'Please select a .jpg or .jpeg image',
  documentNotImage: 'Please select a JPEG or PNG image',
  tooLarge: (maxBytes: number) => `Please select a File of at most ${String(maxBytes / (1024 * 1024))} MB`,
  avatarUploaded: 'Avatar Updated successfully.',
  documentUploaded: 'Document uploaded successfully.',
} as const;

export const WEBHOOK_URL_MAX = 250;

/** Spec §5 "Webhook" and the §8 success toasts. */
export const webhookMessages = {
  state: 'Select State',
  urlMissing: 'Please enter Url',
  urlInvalid: 'URL is invalid',
  urlTooLong: `URL must have at most ${WEBHOOK_URL_MAX} characters`,
  events: 'Event is blank',
  created: 'Webhook created successfully.',
  updated: 'Webhook Updated successfully.',
  rotated: 'Signing secret rotated successfully.',
  testSent: 'Test event sent.',
  replayed: 'Delivery replayed.',
} as const;
