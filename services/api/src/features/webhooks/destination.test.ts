import { describe, expect, it } from 'vitest';
import { resolveWithDns } from '@peeks/jobs';
import { checkDestination } from './destination.ts';

const never = () => Promise.reject(new Error('no resolution expected'));

describe('checkDestination', () => {
  it.each([
    'http://127.0.0.1/hook',
    'http://[::1]:8080/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://10.0.0.8/x',
  ])('refuses the literal %s', async (url) => {
    await expect(checkDestination(url, { allowPrivate: false, resolve: never })).rejects.toMatchObject({
      statusCode: 422,
      errors: [{ code: 42230, field: 'url' }],
    });
  });

  it('refuses a name that resolves to a private address, even when another answer is public', async () => {
    const resolve = () => Promise.resolve(['93.184.215.14', '192.168.0.7']);
    await expect(
      checkDestination('https://mixed.example.com/x', { allowPrivate: false, resolve }),
    ).rejects.toMatchObject({ errors: [{ code: 42230 }] });
  });

  it('refuses localhost through the real resolver', async () => {
    await expect(
      checkDestination('http://localhost:3000/hook', { allowPrivate: false, resolve: resolveWithDns }),
    ).rejects.toMatchObject({ statusCode: 422 });
  });

  it('refuses a name that does not resolve', async () => {
    await expect(
      checkDestination('https://nowhere.invalid/x', { allowPrivate: false, resolve: never }),
    ).rejects.toMatchObject({ errors: [{ code: 42231 }] });
  });

  it('accepts a public name, and anything when private addresses are allowed', async () => {
    await expect(
      checkDestination('https://hooks.example.com/x', {
        allowPrivate: false,
        resolve: () => Promise.resolve(['93.184.215.14']),
      }),
    ).resolves.toBeUndefined();
    await expect(
      checkDestination('http://127.0.0.1/hook', { allowPrivate: true, resolve: never }),
    ).resolves.toBeUndefined();
  });
});
