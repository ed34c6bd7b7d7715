import 'i18next';
import type { Translation } from './texts.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Translation };
  }
}
