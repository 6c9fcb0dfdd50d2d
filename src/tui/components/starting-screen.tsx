import { Box, Text } from 'ink';

/** Shown until the engine's first poll has finished, or why it could not start. */
export function StartingScreen({ error, width }: { error: string | null; width: number }) {
  return (
    <Box flexDirection="column" width={width}>
      <Text bold color="cyan">
        flotilla
      </Text>
      {error === null ? (
        <Text>Starting… (first poll of specs, work items and revisions)</Text>
      ) : (
        <Text color="red">Could not start: {error} — q quits</Text>
      )}
    </Box>
  );
}
