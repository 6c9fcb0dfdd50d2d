import { Box, Text } from 'ink';
import { omitUndefined } from '../../shared/omit-undefined.ts';
import type { DetailContent } from '../view-model/build-detail-content.ts';
import type { Viewport } from '../view-model/build-viewport.ts';

export interface DetailPaneProps {
  content: DetailContent;
  viewport: Viewport;
  /** Null while following the live end. */
  scrollTop: number | null;
  focused: boolean;
  width: number;
  height: number;
}

/** The visible rows of the detail content and a status row: live, paused, or where in the text we are. */
export function DetailPane({ content, viewport, scrollTop, focused, width, height }: DetailPaneProps) {
  const status = content.live
    ? scrollTop === null
      ? '● live — ↑/PgUp scroll back (pauses)'
      : `⏸ paused at line ${viewport.top + 1}/${content.length} — End follows again`
    : viewport.top === 0 && viewport.atEnd
      ? ''
      : `line ${viewport.top + 1}/${content.length}${viewport.atEnd ? ' (end)' : ' — ↓ more'}`;
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Box flexDirection="column" height={height - 1}>
        {viewport.rows.map((row, index) => (
          <Text
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in the viewport
            key={index}
            wrap="truncate"
            {...omitUndefined({ color: row.line.color, bold: row.line.bold, dimColor: row.line.dim })}
          >
            {row.text === '' ? ' ' : row.text}
          </Text>
        ))}
      </Box>
      <Text
        wrap="truncate"
        dimColor={!focused}
        {...(content.live && scrollTop !== null && { color: 'yellow' })}
      >
        {status || ' '}
        {focused ? '' : status ? ' · Tab to scroll' : ''}
      </Text>
    </Box>
  );
}
