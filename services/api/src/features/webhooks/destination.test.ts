import { describe, expect, it } from 'vitest';
import { checkDestination, isPublicAddress, resolveWithDns } from './destination.ts';

describe('isPublicAddress', () => {
  it.each(['10.0.0.1', '172.16.5.4', '192.168.1.1', '127.0.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fc00::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1', 'not-an-ip'])(
    'refuses %s',
    (address) => { expect(isPublicAddress(address)).toBe(false); },
  );
  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts %s', (address) => { expect(isPublicAddress(address)).toBe(true); });
});

const never = () => Promise.reject(new Error('no resolution expected'));

describe('checkDestination', () => {
  it.each(['http://127.0.0.1/hook', 'http://[::1]:8080/hook', 'https://169.254.169.254/latest/meta-data', 'https://10.0.0.8/x'])('refuses the literal %s', async (url) => {
    await expect(checkDestination(url, { allowPrivate: false, resolve: never })).rejects.toMatchObject({ statusCode: 422, errors: [{ code: 42230, field: 'url' }] });
  });

  it('refuses a name that resolves to a private address, even when another answer is public', async () => {
    const resolve = () => Promise.resolve(['93.184.215.14', '192.168.0.7']);
    await expect(checkDestination('https://mixed.example.com/x', { allowPrivate: false, resolve })).rejects.toMatchObject({ errors: [{ code: 42230 }] });
  });

  it('refuses localhost through the real resolver', async () => {
    await expect(checkDestination('http://localhost:3000/hook', { allowPrivate: false, resolve: resolveWithDns })).rejects.toMatchObject({ statusCode: 422 });
  });

  it('refuses a name that does not resolve', async () => {
    await expect(checkDestination('https://nowhere.invalid/x', { allowPrivate: false, resolve: never })).rejects.toMatchObject({ errors: [{ code: 42231 }] });
  });

  it('accepts a public name, and anything when private addresses are allowed', async () => {
    await expect(checkDestination('https://hooks.example.com/x', { allowPrivate: false, resolve: () => Promise.resolve(['93.184.215.14']) })).resolves.toBeUndefined();
    await expect(checkDestination('http://127.0.0.1/hook', { allowPrivate: true, resolve: never })).resolves.toBeUndefined();
  });
});
