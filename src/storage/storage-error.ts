/** An error from Flotilla's SQLite storage; the message names the entity and what was expected. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
}
