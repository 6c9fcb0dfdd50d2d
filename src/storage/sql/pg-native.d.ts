// pg-native 3.9.0 ships no types; only what create-postgres-connection.ts uses (its README, "Sync API").
declare module 'pg-native' {
  interface TypeParsers {
    getTypeParser(oid: number, format?: string): (value: string) => unknown;
  }
  class Client {
    constructor(config?: { types?: TypeParsers });
    connectSync(connectionString: string): void;
    querySync(text: string, values?: readonly (string | number | null)[]): Record<string, unknown>[];
    end(callback?: () => void): void;
  }
  export default Client;
}
