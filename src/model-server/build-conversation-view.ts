import { buildGeminiRequestView } from './gemini-request-view.ts';
import type { RecordedRequest } from './recorded-request.ts';
import { buildRequestView, type RequestView } from './request-view.ts';
import { buildResponsesRequestView } from './responses-request-view.ts';

/** The model APIs the server speaks: Anthropic's Messages, OpenAI's Responses and Gemini's generateContent. */
export type ModelApi = 'messages' | 'responses' | 'generate-content';

/** The request as the scripted routes see it, from the API's own request shape. */
export function buildConversationView(
  api: ModelApi,
  body: Record<string, unknown>,
  record: RecordedRequest,
): RequestView {
  if (api === 'messages') return buildRequestView(body, record.headers);
  if (api === 'generate-content')
    return buildGeminiRequestView(body, new URL(record.url, 'http://127.0.0.1').pathname, record.headers);
  return buildResponsesRequestView(body, record.headers);
}
