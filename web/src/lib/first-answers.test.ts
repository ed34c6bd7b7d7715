import { describe, expect, it } from 'vitest';
import { takeFirstAnswers } from './first-answers.ts';

describe('the answers the page came with', () => {
  const element = (text: string) => {
    const script = document.createElement('script');
    script.type = 'application/json';
    script.textContent = text;
    document.body.append(script);
    return script;
  };

  it('reads them once: the element is gone after', () => {
    const script = element('{"session":{"user":null},"balance":{"x":1}}');
    expect(takeFirstAnswers(script)).toEqual({ session: { user: null }, balance: { x: 1 } });
    expect(script.isConnected).toBe(false);
  });

  it('takes nothing unreadable, or no element, as no answer', () => {
    expect(takeFirstAnswers(null)).toEqual({});
    expect(takeFirstAnswers(element('{"session":'))).toEqual({});
    expect(takeFirstAnswers(element('null'))).toEqual({});
  });
});
