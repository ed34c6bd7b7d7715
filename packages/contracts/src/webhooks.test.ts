import { describe, expect, it } from 'vitest';
import { webhookMessages } from './form-messages.ts';
import { createWebhookRequest } from './webhooks.ts';

const form = (url: string) => ({ state: 'enabled', url, events: ['deposit-entered'] });
const urlOf = (url: string) => {
  const parsed = createWebhookRequest.safeParse(form(url));
  return parsed.success ? parsed.data.url : parsed.error.issues.map((issue) => issue.message);
};

describe('webhook URLs (issue 21, item 4)', () => {
  it.each([
    'https://hooks.example.com/in\r\nX-Injected: 1',
    'https://hooks.example.com/a\nb',
    'https://hooks.example.com\\@evil.example/',
    'https://good.example\\evil',
    'https://user:secret@hooks.example.com/',
    'https://user@hooks.example.com/',
    'https://hooks.example.com:22/',
    'https://hooks.example.com:1023/',
    'https://hooks.example.com:0/',
    'ftp://hooks.example.com/',
    'https://hooks.example.com/a b',
  ])('refuses %j', (url) => {
    expect(urlOf(url)).toEqual([webhookMessages.urlInvalid]);
  });

  it.each([
    ['HTTPS://Hooks.Example.COM:443/In', 'https://hooks.example.com/In'],
    ['http://hooks.example.com:80/x?y=1', 'http://hooks.example.com/x?y=1'],
    ['https://hooks.example.com:8443/hook', 'https://hooks.example.com:8443/hook'],
    ['https://hooks.example.com/a/../b', 'https://hooks.example.com/b'],
    ['https://hooks.example.com/ümlaut', 'https://hooks.example.com/%C3%BCmlaut'],
  ])('takes %j as %j', (url, stored) => {
    expect(urlOf(url)).toBe(stored);
  });
});
