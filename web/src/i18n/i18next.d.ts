import 'i18next';
import type { Translation } from './en.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Translation };
  }
}
