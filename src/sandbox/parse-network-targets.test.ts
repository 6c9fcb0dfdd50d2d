import { describe, expect, it } from 'vitest';
import { parseNetworkTargets } from './parse-network-targets.ts';

const parse = (...values: string[]) =>
  parseNetworkTargets(values.map((value) => ({ value, source: 'test' })));

describe('parseNetworkTargets', () => {
  it('forwards loopback ports and proxies every other host:port', () => {
    expect(
      parse(
        'http://127.0.0.1:8080',
        'http://localhost:9000/v1',
        'https://api.anthropic.com',
        'registry.npmjs.org',
        'Example.com:8443',
        'http://127.0.0.2:81',
      ),
    ).toEqual({
      loopback: [
        { host: '127.0.0.1', port: 8080 },
        { host: 'localhost', port: 9000 },
      ],
      proxied: ['127.0.0.2:81', 'api.anthropic.com:443', 'example.com:8443', 'registry.npmjs.org:443'],
    });
  });

  it('takes default ports from the protocol and keeps one entry per port', () => {
    expect(parse('http://127.0.0.1', 'http://localhost:80', 'http://api.example.com')).toEqual({
      loopback: [{ host: '127.0.0.1', port: 80 }],
      proxied: ['api.example.com:80'],
    });
  });

  it('refuses malformed entries, naming them and where they came from', () => {
    expect(() => parseNetworkTargets([{ value: 'ftp://x', source: 'sandbox.network.allow' }])).toThrow(
      /sandbox\.network\.allow: "ftp:\/\/x" has protocol ftp:/,
    );
    expect(() => parse('not a host')).toThrow(/test: "not a host" is not a host name/);
    expect(() => parse('host:99999')).toThrow(/port outside/);
  });
});
