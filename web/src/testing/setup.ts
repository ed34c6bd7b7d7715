import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { startI18n } from '../i18n/i18n.ts';

beforeAll(() => {
  startI18n('en');
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});
