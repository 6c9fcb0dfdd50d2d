import type { HumanComment, Provider } from '../../providers/types.ts';

/**
 * A human's comment on a work item (`work comment`, `answer`, the HTTP API): under their name where the
 * tracker records authors (the LocalAdmin capability); elsewhere the token's user posts it, signed with the
 * name, unless `signed` is false (an answer, which the engine's poller reads as it is).
 */
export async function addHumanComment(
  provider: Pick<Provider, 'workItemWriter' | 'localAdmin'>,
  id: string,
  comment: HumanComment,
  options: { signed: boolean } = { signed: true },
): Promise<void> {
  if (provider.localAdmin !== undefined) return provider.localAdmin.addHumanComment(id, comment);
  const body = options.signed
    ? `${comment.body.trimEnd()}\n\n— ${comment.author} (via flotilla)`
    : comment.body;
  await provider.workItemWriter.addComment(id, body);
}
