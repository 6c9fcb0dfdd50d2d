import { Box, Text } from 'ink';
import type { WorkItemPriority } from '../../domain/index.ts';
import type { SectionLayout } from '../view-model/build-list-layout.ts';
import type { WorkItemRow } from '../view-model/build-work-item-sections.ts';
import { DISPLAY_STATUS_STYLES } from '../view-model/display-status.ts';
import { sanitizeTerminalText } from '../view-model/sanitize-terminal-text.ts';

const PRIORITY_COLORS: Record<WorkItemPriority, 'red' | 'yellow' | 'gray'> = {
  high: 'red',
  medium: 'yellow',
  low: 'gray',
};

export interface WorkItemListProps {
  layout: SectionLayout[];
  selectedID: string | null;
  focused: boolean;
  width: number;
  idWidth: number;
}

/** The sections, each with a header showing how much of it is visible, and one row per item. */
export function WorkItemList({ layout, selectedID, focused, width, idWidth }: WorkItemListProps) {
  return (
    <Box flexDirection="column" width={width}>
      {layout.map((section) => {
        const end = section.start + section.rows.length;
        const truncated = section.rows.length < section.total;
        return (
          <Box key={section.key} flexDirection="column">
            <Text wrap="truncate" bold dimColor={section.total === 0}>
              {section.title}{' '}
              {truncated ? `(${section.start + 1}-${end}/${section.total})` : `(${section.total})`}
              {section.start > 0 ? ' ↑' : ''}
              {end < section.total ? ' ↓' : ''}
            </Text>
            {section.rows.map((row) => (
              <ItemRow
                key={row.item.id}
                row={row}
                selected={row.item.id === selectedID}
                focused={focused}
                width={width}
                idWidth={idWidth}
              />
            ))}
          </Box>
        );
      })}
    </Box>
  );
}

function ItemRow({
  row,
  selected,
  focused,
  width,
  idWidth,
}: {
  row: WorkItemRow;
  selected: boolean;
  focused: boolean;
  width: number;
  idWidth: number;
}) {
  const style = DISPLAY_STATUS_STYLES[row.displayStatus];
  const pipeline = row.revision?.pipeline;
  const checks =
    pipeline === 'success' ? '✔' : pipeline === 'failure' ? '✖' : pipeline === 'pending' ? '…' : ' ';
  const checksColor = pipeline === 'success' ? 'green' : pipeline === 'failure' ? 'red' : 'yellow';
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate" inverse={selected && focused} bold={selected}>
        <Text>{selected ? '›' : ' '}</Text>
        <Text {...(row.item.priority && { color: PRIORITY_COLORS[row.item.priority] })}>
          {`#${row.item.id}`.padEnd(idWidth + 1)}
        </Text>
        <Text color={style.color}>
          {style.label.padEnd(8)} {style.icon}
        </Text>
        <Text color={checksColor}>{checks}</Text>
        <Text> {sanitizeTerminalText(row.item.title)}</Text>
      </Text>
    </Box>
  );
}
