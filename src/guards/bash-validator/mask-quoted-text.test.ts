import { describe, expect, it } from 'vitest';
import { maskQuotedText } from './mask-quoted-text.ts';

describe('maskQuotedText (published quote masking)', () => {
  it('blanks quoted text and keeps the quote marks and length', () => {
    expect(maskQuotedText(`echo 'a b' "c"`)).toBe(`echo '   ' " "`);
  });

  it('treats a backslash inside double quotes as an escape', () => {
    expect(maskQuotedText('echo "say \\"kill\\""')).toBe('echo "            "');
  });

  it('keeps backslash escapes outside quotes', () => {
    expect(maskQuotedText("echo \\' kill")).toBe("echo \\' kill");
  });

  it('masks an unclosed quote to the end', () => {
    expect(maskQuotedText("echo 'kill x")).toBe("echo '      ");
  });

  it('blanks the given ranges before scanning quotes', () => {
    const command = "cat <<E\ndon't kill\nE\nkill 1";
    const start = command.indexOf('don');
    const end = command.indexOf('E\nkill');
    expect(maskQuotedText(command, [[start, end]])).toBe('cat <<E\n          \nE\nkill 1');
  });
});
