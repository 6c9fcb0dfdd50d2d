import { Box, Text } from 'ink';

/** The detail pane with nothing to show: why the list is empty, and what to do about it. */
export function EmptyDetail(props: {
  rowsShown: number;
  filterText: string;
  workItems: number;
  width: number;
}) {
  const filter = props.filterText.trim();
  return (
    <Box width={props.width}>
      <Text dimColor>
        {props.rowsShown > 0
          ? 'No work item selected'
          : filter !== ''
            ? `No open work item matches "${filter}". Esc clears the filter.`
            : props.workItems > 0
              ? 'Every work item is closed. Approve another spec (status: approved) to plan more.'
              : 'No work items yet. Approve a spec (status: approved) and the planner creates them.'}
      </Text>
    </Box>
  );
}
