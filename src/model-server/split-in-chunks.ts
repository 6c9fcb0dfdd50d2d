/** Up to three chunks, so clients really have to concatenate deltas. */
export function splitInChunks(text: string): string[] {
  if (text.length < 3) return [text];
  const size = Math.ceil(text.length / 3);
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += size) chunks.push(text.slice(start, start + size));
  return chunks;
}
