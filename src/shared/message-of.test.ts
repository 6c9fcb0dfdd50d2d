import { describe, expect, it } from 'vitest';
import { messageOf } from './message-of.ts';

describe('messageOf', () => {
  it("gives an Error's message without its class name", () => {
    expect(messageOf(new TypeError('bad input'))).toBe('bad input');
  });

  it('renders anything else that was thrown as text', () => {
    expect(messageOf('plain string')).toBe('plain string');
    expect(messageOf(42)).toBe('42');
    expect(messageOf(undefined)).toBe('undefined');
    expect(messageOf({ code: 'E' })).toBe('[object Object]');
  });
});
